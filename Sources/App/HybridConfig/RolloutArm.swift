/// One arm of a rollout.
package struct RolloutArm: Sendable, Hashable, Codable {
    /// Name reported with results (`treatment`, `bullet-first`).
    package var name: String
    /// Share of installs, 0–100, with up to two decimals (buckets are 0.01 %).
    package var percentage: Double
    /// Variant this arm uses instead of the feature's default.
    package var variant: String?
    /// Priority order this arm uses instead of the feature's.
    package var priority: [String]?
    /// Input rules this arm uses instead of the feature's (an empty list: none), so a rule goes out as a rollout.
    package var inputRules: [InputRule]?

    /// Creates an arm; `percentage` is 0–100.
    package init(
        name: String, percentage: Double, variant: String? = nil, priority: [String]? = nil, inputRules: [InputRule]? = nil
    ) {
        self.name = name
        self.percentage = percentage
        self.variant = variant
        self.priority = priority
        self.inputRules = inputRules
    }
}
