/// Why a result has no usable output: a machine kind and a message for people.
public struct ResultError: Sendable, Hashable, Codable {
    /// A stable kind name, such as `GenerationError.Kind.rawValue` (`rate_limited`) or a runner kind (`parse_failure`).
    public var kind: String
    /// The message as shown to the user; it must not contain secrets.
    public var message: String

    /// Creates an error record; `message` must not contain secrets.
    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }
}
