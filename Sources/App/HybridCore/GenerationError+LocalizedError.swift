public import Foundation

/// What an app shows: `localizedDescription` (SwiftUI's alert, `NSError` bridging) reads `errorDescription`, a
/// short sentence a user can read; `description` keeps the developer's
/// diagnostic (model, URL, status, provider message).
extension GenerationError: LocalizedError {
    /// A short message for the app's user; `description` has the diagnostic.
    public var errorDescription: String? {
        switch kind {
        case .rateLimited: "The service is busy right now."
        case .unavailable, .timeout: "The service could not be reached."
        // The network worked and the server answered with a failure: nothing on the user's side to check.
        case .serverError: "The service ran into a problem."
        case .refusal: "This request can't be answered."
        case .cancelled: "The request was cancelled."
        case .contextWindowExceeded: "The text is too long to process."
        case .authentication, .invalidRequest, .decodingFailure: "Something went wrong with the service."
        }
    }

    /// What the user can do about it, where something can be done; `RouterError.recoverySuggestion` says it (the
    /// app budget keeps one spelling: an app meets a model's error through the router's).
    package var userRemedy: String? {
        switch kind {
        case .rateLimited: "Try again in a moment."
        case .unavailable, .timeout: "Check your connection and try again."
        case .serverError: "Try again later."
        case .contextWindowExceeded: "Try a shorter text."
        default: nil
        }
    }
}
