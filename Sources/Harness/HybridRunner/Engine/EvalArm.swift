public import HybridCore

/// One arm of an evaluation: a feature's prompt variant on one model.
public struct EvalArm: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Feature name from the config.
    public var feature: String
    /// Name of the prompt variant.
    public var variant: String
    /// Configured model id (a key of the config's `models`).
    public var modelID: String
    /// Tier the model runs in.
    public var tier: ModelTier

    /// Creates an arm.
    public init(feature: String, variant: String, modelID: String, tier: ModelTier) {
        self.feature = feature
        self.variant = variant
        self.modelID = modelID
        self.tier = tier
    }

    /// The arm id stored with every result: `variant@model`.
    public var id: String { "\(variant)@\(modelID)" }

    public var description: String { "\(feature)/\(id)" }
}
