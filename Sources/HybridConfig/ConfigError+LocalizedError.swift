public import Foundation

/// So an app can show the error as it is: `localizedDescription` reads `errorDescription`.
extension ConfigError: LocalizedError {
    /// The same message as `description`, with the JSON path or URL it is about.
    public var errorDescription: String? { description }
}
