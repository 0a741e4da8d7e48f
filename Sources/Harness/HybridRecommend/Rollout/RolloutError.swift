/// Why `hybrid rollout` could not act: a message naming the feature, the destination or the store, and what to do.
public struct RolloutError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
