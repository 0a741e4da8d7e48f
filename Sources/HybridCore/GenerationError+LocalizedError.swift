public import Foundation

/// So an app can show the error as it is: `localizedDescription` (and SwiftUI's alert, `NSError` bridging) read
/// `errorDescription`, and without it they print "The operation could not be completed. (… error 1.)".
extension GenerationError: LocalizedError {
    /// The same message as `description`: what happened and what to do.
    public var errorDescription: String? { description }
}
