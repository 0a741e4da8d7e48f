/// The events of a field run that one input rule routed (`inputRules` in the config), or those the feature's own
/// route served (`rule` nil), with the figures an arm's row has, on installs.
///
/// Descriptive only: a rule selects its requests by what they hold (long inputs, code, a label), so two branches
/// differ in their inputs as well as in their route, and a difference between them is no effect of the rule. The
/// report therefore tests nothing between branches; a rule's effect is measured by a rollout arm that adds it.
public struct FieldRuleBranch: Sendable, Hashable, Codable {
    /// The rule's name; nil for the feature's own route.
    public var rule: String?
    /// The rollout arms (`default` for installs outside every arm) whose events took this branch, sorted.
    public var arms: [String]
    /// The branch's figures: events, installs, adherence, latency and cost, as in an arm's row.
    public var figures: FieldArmSummary

    /// A branch; see the properties.
    public init(rule: String?, arms: [String], figures: FieldArmSummary) {
        self.rule = rule
        self.arms = arms
        self.figures = figures
    }

    /// The name reports print: the rule's, or "own route".
    public var name: String { rule ?? "own route" }
}
