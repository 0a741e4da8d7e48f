/// A staged rollout's state as the store keeps it for `hybrid rollout`: an opaque JSON body (the recommend layer's
/// `RolloutState`) under a revision that every write must name, so two processes can never both advance a stage.
public struct RolloutRecord: Sendable, Hashable {
    /// The feature whose rollout this is.
    public var feature: String
    /// 1 for the first write, one more for each write after it.
    public var revision: Int
    /// The state, as JSON.
    public var body: String

    /// A record; the stores build these.
    public init(feature: String, revision: Int, body: String) {
        self.feature = feature
        self.revision = revision
        self.body = body
    }
}
