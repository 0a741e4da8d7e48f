/// A percentage split of one feature's traffic between arms, each overriding the variant and/or priority order.
///
/// Arms take consecutive bucket ranges in list order (the first arm gets buckets `0..<p1`, the second
/// `p1..<p1+p2`, …); installs outside every arm get the feature's defaults. Raising the percentage of a single
/// arm, or of the last arm, therefore only adds installs to it. Add new arms at the end; changing `seed`
/// reshuffles everyone.
package struct RolloutConfig: Sendable, Hashable, Codable {
    /// Mixed into the hash so different experiments split installs independently.
    package var seed: String
    /// Arms in bucket order; their percentages add up to at most 100.
    package var arms: [RolloutArm]
    /// The stages and guardrails `hybrid rollout` moves an arm by; nil: the percentages change only by hand (or by
    /// `hybrid recommend`).
    package var plan: RolloutPlan?
    /// How the experiment is decided: nil or `alwaysValid` for the always-valid default, or a planned horizon with
    /// group-sequential looks (see ``RolloutDesign``).
    package var design: RolloutDesign?

    /// Creates a rollout; keep `seed` fixed, since changing it reshuffles every install between arms.
    package init(seed: String, arms: [RolloutArm], plan: RolloutPlan? = nil, design: RolloutDesign? = nil) {
        self.seed = seed
        self.arms = arms
        self.plan = plan
        self.design = design
    }
}
