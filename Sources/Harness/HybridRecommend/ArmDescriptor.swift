public import HybridCore

/// One arm of a stored run: a prompt variant on a model, as the runner named it (`variant@model`).
public struct ArmDescriptor: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `variant@model`, the `arm_id` of stored results.
    public var id: String
    /// Prompt variant name.
    public var variant: String
    /// Configured model id.
    public var modelID: String
    /// Tier the model ran in.
    public var tier: ModelTier

    /// Creates a descriptor; `id` should be `variant@modelID` to match stored results.
    public init(id: String, variant: String, modelID: String, tier: ModelTier) {
        self.id = id
        self.variant = variant
        self.modelID = modelID
        self.tier = tier
    }

    public static func < (lhs: ArmDescriptor, rhs: ArmDescriptor) -> Bool { lhs.id < rhs.id }

    public var description: String { id }
}
