import Foundation

/// Reads one environment variable of this process.
///
/// `ProcessInfo.processInfo.environment` copies the whole environment into a new dictionary on every access; at
/// one API-key lookup per request that was 8 % of a fast eval's CPU. `getenv` reads the one variable in place and,
/// like the dictionary, sees a key set after start-up.
@usableFromInline enum ProcessEnvironment {
    /// The value of `name`, or nil when it is unset.
    @usableFromInline @Sendable static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
