public import Foundation

/// So an app can show the error as it is: `localizedDescription` (and SwiftUI's alert, `NSError` bridging) read
/// `errorDescription`; without it they print "The operation could not be completed. (HybridRouter.RouterError
/// error 1.)". The message names the feature and every attempt with its reason.
extension RouterError: LocalizedError {
    /// The same message as `description`.
    public var errorDescription: String? { description }

    /// For `NSError` bridging: the first attempt's reason is the most specific failure.
    public var failureReason: String? { attempts.first.map(\.description) }
}
