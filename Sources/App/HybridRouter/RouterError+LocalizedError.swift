public import Foundation

/// What an app shows: `localizedDescription` (SwiftUI's alert, `NSError` bridging) reads `errorDescription`, a
/// short sentence a user can read, and `recoverySuggestion` where the user can do something; `description` keeps the
/// developer's diagnostic (the feature and every attempt with its reason), for logs.
extension RouterError: LocalizedError {
    /// A short message for the app's user; `description` has the diagnostic.
    public var errorDescription: String? {
        switch code.kind {
        case .noEligibleModel:
            switch failure {
            case .unreachable: "The assistant could not be reached."
            case .serverFailed: "The assistant's service ran into a problem."
            case .other: "The assistant can't answer this request right now."
            }
        case .deadlineExceeded: "The answer took too long."
        case .stopped: generationError?.errorDescription ?? "This request can't be answered."
        case .streamInterrupted: "The answer was interrupted."
        case .cancelled: "The request was cancelled."
        case .outputChecksFailed, .outputNotDecodable: "The answer could not be used."
        case .inputTooShort: "The text is too short."
        case .unknownFeature, .renderFailed, .invalidOutputType: "Something went wrong in the app."
        }
    }

    /// What the user can do about it; nil where nothing they do helps (a refusal, a bug in the app).
    public var recoverySuggestion: String? {
        switch code.kind {
        case .noEligibleModel: failure == .unreachable ? "Check your connection and try again." : "Try again later."
        case .deadlineExceeded, .streamInterrupted, .outputChecksFailed, .outputNotDecodable: "Try again."
        case .stopped: generationError?.userRemedy
        case .inputTooShort: minimumLength.map { "Write at least \($0) characters." } ?? "Write a little more."
        case .cancelled, .unknownFeature, .renderFailed, .invalidOutputType: nil
        }
    }

    private enum Failure { case unreachable, serverFailed, other }

    /// How every model called failed: the network (nothing answered: the user's connection may be the cause), a
    /// server that answered with an error (a connection check would not help), or anything else.
    private var failure: Failure {
        let kinds = attempts.compactMap(\.outcome.error?.kind)
        guard !kinds.isEmpty, kinds.allSatisfy({ [.unavailable, .serverError, .timeout].contains($0) }) else { return .other }
        return kinds.contains(.serverError) ? .serverFailed : .unreachable
    }
}
