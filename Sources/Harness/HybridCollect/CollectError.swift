/// Why the collector refused a whole request or an ingest file; the message says what to fix.
public struct CollectError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case malformedBatch, unauthorized, tooLarge, unreadable
    }

    private let kind: Kind
    /// What went wrong, naming the field, file or limit.
    public let message: String

    /// The body is not a `RouteEventBatch` (HTTP 400).
    public static func malformedBatch(_ reason: String) -> CollectError {
        CollectError(kind: .malformedBatch, message: "malformed batch: \(reason)")
    }

    /// The bearer token is missing or wrong (HTTP 401). Never carries the token.
    public static let unauthorized = CollectError(kind: .unauthorized, message: "missing or wrong bearer token")

    /// The body is over the limit (HTTP 413).
    public static func tooLarge(limit: Int) -> CollectError {
        CollectError(kind: .tooLarge, message: "body larger than \(limit) bytes")
    }

    /// A file or compressed body could not be read.
    public static func unreadable(_ reason: String) -> CollectError {
        CollectError(kind: .unreadable, message: reason)
    }

    /// The HTTP status the collector answers with.
    public var httpStatus: Int {
        switch kind {
        case .malformedBatch, .unreadable: 400
        case .unauthorized: 401
        case .tooLarge: 413
        }
    }

    public var description: String { message }
}
