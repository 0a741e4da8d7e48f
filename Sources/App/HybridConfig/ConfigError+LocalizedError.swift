public import Foundation

/// What an app shows: `localizedDescription` reads `errorDescription`, a short sentence a user can read;
/// `description` keeps the developer's diagnostic (the file or URL, every JSON path and what is wrong there).
extension ConfigError: LocalizedError {
    /// A short message for the app's user; `description` has the diagnostic.
    public var errorDescription: String? {
        switch kind {
        case .fetchFailed, .httpStatus: "The latest settings could not be downloaded."
        default: "The app's settings could not be loaded."
        }
    }
}
