/// What one install uses for one feature after rollouts: the variant, the priority order and the arm.
package struct FeatureAssignment: Sendable, Hashable {
    /// The feature name.
    var feature: String
    /// The prompt variant to use.
    package var variant: String
    /// Model ids to try, best first.
    package var priority: [String]
    /// The rollout arm, or nil when the install gets the feature's defaults.
    package var arm: String?
    /// The input rules in force: the arm's when it sets them, else the feature's.
    package var inputRules: [InputRule] = []
}
