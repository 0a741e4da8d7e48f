import Foundation
package import HybridConfig
import HybridRecommend
import HybridReport
import HybridStore

/// One seeded staged rollout of a ``FieldScenario``, decided as `hybrid rollout step` decides it: the real
/// `RolloutController` after every look, over the real field analysis of the stage's events, advancing the arm
/// through the plan's stages (a new config version each, so each stage has its own events) until it completes or
/// rolls back. The scenario's `effect` is what the change does to the installs it reaches.
public struct RolloutExperiment: Sendable {
    /// How one rollout ended.
    public struct Outcome: Sendable, Hashable {
        /// The stage (its percentage) at which it was rolled back; nil when it completed.
        public var rolledBackAt: Double?
        /// Installs in the arm with events of the stage when it was rolled back.
        public var armInstallsAtRollback: Int?
        /// Whether it reached 100 %.
        public var completed = false
        /// Looks taken, over all stages.
        public var looks = 0
    }

    let scenario: FieldScenario
    let plan: RolloutPlan

    /// An experiment of `scenario` under `plan`; `scenario.looksPerDay` sets how often `hybrid rollout step` runs.
    package init(_ scenario: FieldScenario, plan: RolloutPlan) {
        self.scenario = scenario
        self.plan = plan
    }

    /// The plan the calibration uses: the default stages, a day and 20 installs per group per stage (the 1 % stage of 4,000 installs has 40 ± 6), error rate
    /// and adherence guarded at tolerance 0.
    package static let calibrationPlan = RolloutPlan(
        stages: [1, 5, 25, 50, 100], minStageHours: 24, minInstallsPerArm: 20,
        guardrails: [.init(metric: .errorRate), .init(metric: .adherence)])

    /// `runs` seeded rollouts of the calibration scenario (4,000 installs over 12 days, a look every 12 hours, the
    /// calibration plan) whose change raises the error rate by `errorRate`, run concurrently: what the rollout tests
    /// (a few dozen) and `hybrid-bench calibrate` (200) measure the rule on.
    public static func calibration(errorRate: Double, runs: Int) async -> [Outcome] {
        var scenario = FieldScenario(name: "staged rollout", installs: 4_000, days: 12)
        scenario.looksPerDay = 2
        scenario.effect = .init(errorRate: errorRate)
        let experiment = RolloutExperiment(scenario, plan: calibrationPlan)
        return await withTaskGroup(of: Outcome.self) { group in
            for seed in 0..<runs { group.addTask { experiment.run(seed: UInt64(9_000 + seed)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Rollout `seed`, look by look, until it completes or rolls back.
    public func run(seed: UInt64) -> Outcome {
        var population = FieldPopulation(scenario, seed: seed)
        let controller = RolloutController(plan: plan)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var state = RolloutState(
            feature: "summarize", arm: "treat", destination: "calibration", stage: 0, percentage: plan.stages[0],
            stageVersion: 2, stageStartedAt: start)
        var events: [FieldEventRecord] = []
        var outcome = Outcome()
        let lookSeconds = 86_400 / Double(scenario.looksPerDay)
        for look in 0..<(scenario.days * scenario.looksPerDay) {
            events += population.stagedEvents(look: look, percentage: state.percentage, version: state.stageVersion)
            outcome.looks += 1
            let now = start.addingTimeInterval(Double(look + 1) * lookSeconds)
            let result = controller.look(state: state, analysis: RolloutController.stageAnalysis(events, state: state), now: now)
            switch result.decision.action {
            case .rollBack:
                outcome.rolledBackAt = state.percentage
                outcome.armInstallsAtRollback = result.decision.armInstalls
                return outcome
            case .advance:
                state = state.applying(result.decision, version: state.stageVersion + 1, at: now)
                events = []
                if state.status == .completed {
                    outcome.completed = true
                    return outcome
                }
            default:
                state = state.recording(result.decision, bounds: result.bounds)
            }
        }
        return outcome
    }
}
