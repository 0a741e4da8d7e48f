/// Which model served (or was asked to serve) a request: its configured id and tier.
public struct ModelIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The id the configuration gives the model, such as `local-smollm2`.
    public var id: String
    /// Where the model runs.
    public var tier: ModelTier

    /// Creates an identity from a configured model id and the tier it runs in.
    public init(id: String, tier: ModelTier) {
        self.id = id
        self.tier = tier
    }

    public var description: String { "\(id) (\(tier.rawValue))" }
}
