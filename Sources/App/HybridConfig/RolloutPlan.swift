/// How a rollout's arm reaches installs in stages, and what stops it: `hybrid rollout` moves the arm's percentage
/// through ``stages`` while no ``guardrails`` metric is shown worse than the control, and sets it to 0 % when one is.
///
/// A stage lasts at least ``minStageHours`` and until both the arm and the control have ``minInstallsPerArm``
/// installs with events of that stage's config version; the guardrails are judged on installs (the unit the
/// rollout randomises) with always-valid tests, so `hybrid rollout` may look as often as it likes.
package struct RolloutPlan: Sendable, Hashable, Codable {
    /// One metric that must not get worse, and by how much it may before the rollout is rolled back.
    package struct Guardrail: Sendable, Hashable, Codable {
        /// The field report's metric name.
        package var metric: Metric
        /// How much worse than the control the arm may be (in the metric's unit: 0.02 is 2 points of a rate) before
        /// a breach counts; 0 rolls back on any harm shown.
        package var tolerance: Double

        package init(metric: Metric, tolerance: Double = 0) {
            self.metric = metric
            self.tolerance = tolerance
        }

        private enum CodingKeys: String, CodingKey { case metric, tolerance }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            metric = try container.decode(Metric.self, forKey: .metric)
            tolerance = try container.decodeIfPresent(Double.self, forKey: .tolerance) ?? 0
        }
    }

    /// The metrics a guardrail may watch: the field report's always-valid comparisons (higher is worse for every one
    /// but adherence; the rollout controller judges the direction).
    package enum Metric: String, Sendable, Hashable, Codable, CaseIterable {
        case adherence, errorRate, fallbackRate, latencyMeanMs, costPer1000USD
    }

    /// The arm the plan moves; nil: the rollout's only arm.
    var arm: String?
    /// Percentages of installs, increasing, the last one 100.
    package var stages: [Double]
    /// Least time a stage lasts before the next may start.
    package var minStageHours: Double
    /// Least installs with events of the stage, in the arm and in the control each, before the stage may end.
    package var minInstallsPerArm: Int
    /// What must not get worse.
    package var guardrails: [Guardrail]

    /// The plan's defaults: a day and 200 installs per arm per stage; error rate and adherence guarded.
    package init(
        arm: String? = nil, stages: [Double] = [1, 5, 25, 50, 100], minStageHours: Double = 24, minInstallsPerArm: Int = 200,
        guardrails: [Guardrail] = [Guardrail(metric: .errorRate), Guardrail(metric: .adherence)]
    ) {
        self.arm = arm
        self.stages = stages
        self.minStageHours = minStageHours
        self.minInstallsPerArm = minInstallsPerArm
        self.guardrails = guardrails
    }

    private enum CodingKeys: String, CodingKey { case arm, stages, minStageHours, minInstallsPerArm, guardrails }

    package init(from decoder: any Decoder) throws {
        let defaults = RolloutPlan()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        arm = try container.decodeIfPresent(String.self, forKey: .arm)
        stages = try container.decode([Double].self, forKey: .stages)
        minStageHours = try container.decodeIfPresent(Double.self, forKey: .minStageHours) ?? defaults.minStageHours
        minInstallsPerArm = try container.decodeIfPresent(Int.self, forKey: .minInstallsPerArm) ?? defaults.minInstallsPerArm
        guardrails = try container.decodeIfPresent([Guardrail].self, forKey: .guardrails) ?? defaults.guardrails
    }

    /// The arm `rollout` moves under this plan: the named one, or the only one.
    package func armName(in rollout: RolloutConfig) -> String? {
        arm ?? (rollout.arms.count == 1 ? rollout.arms[0].name : nil)
    }

    /// The stage `percentage` is at (its index in ``stages``), nil when it is none of them (0 %: not started).
    package func stageIndex(of percentage: Double) -> Int? {
        stages.firstIndex { abs($0 - percentage) < 0.005 }
    }
}
