import Foundation
import HybridCalibration
import Testing

/// The staged rollout's decision rule (`RolloutController`, as `hybrid rollout step` runs it) over 200 seeded
/// rollouts each: a harmless change is rolled back in at most 5 % of them over all its stages, and a change that
/// raises the error rate by 10 points is rolled back before the 50 % stage in at least 90 %. 4,000 installs, a
/// look every 6 hours, a stage of at least a day and 20 installs per group (the calibration plan).
@Suite("Staged rollouts: false rollbacks and missed regressions")
struct RolloutCalibrationTests {
    /// 200, or `HYBRID_ROLLOUT_RUNS` when set.
    static let runs = ProcessInfo.processInfo.environment["HYBRID_ROLLOUT_RUNS"].flatMap(Int.init) ?? 200

    static func outcomes(errorRate: Double) async -> [RolloutExperiment.Outcome] {
        var scenario = FieldScenario(name: "staged rollout", installs: 4_000, days: 12)
        scenario.looksPerDay = 2
        scenario.effect = .init(errorRate: errorRate)
        let experiment = RolloutExperiment(scenario, plan: RolloutExperiment.calibrationPlan)
        return await withTaskGroup(of: RolloutExperiment.Outcome.self) { group in
            for seed in 0..<runs { group.addTask { experiment.run(seed: UInt64(9_000 + seed)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("a harmless change: rolled back in at most 5 % of 200 rollouts, and it completes")
    func harmlessChangesAreNotRolledBack() async {
        let outcomes = await Self.outcomes(errorRate: 0)
        let rolledBack = outcomes.filter { $0.rolledBackAt != nil }
        print("rollout calibration: harmless change rolled back in \(rolledBack.count) of \(outcomes.count) (stages: \(rolledBack.compactMap(\.rolledBackAt)))")
        #expect(Double(rolledBack.count) <= 0.05 * Double(outcomes.count))
        let stalled = outcomes.filter { $0.rolledBackAt == nil && !$0.completed }
        #expect(stalled.isEmpty, "\(stalled.count) harmless rollouts neither completed nor rolled back in 12 days")
    }

    @Test("a 10-point error-rate regression: rolled back before the 50 % stage in at least 90 % of 200 rollouts")
    func regressionsAreRolledBackEarly() async {
        let outcomes = await Self.outcomes(errorRate: 0.10)
        let early = outcomes.filter { ($0.rolledBackAt ?? 100) < 50 }
        let byStage = Dictionary(grouping: outcomes.compactMap(\.rolledBackAt), by: { $0 }).mapValues(\.count)
        let installs = outcomes.compactMap(\.armInstallsAtRollback).sorted()
        print("rollout calibration: 10-point regression rolled back before 50 % in \(early.count) of \(outcomes.count); by stage \(byStage.sorted { $0.key < $1.key }); arm installs at rollback median \(installs.isEmpty ? 0 : installs[installs.count / 2])")
        #expect(Double(early.count) >= 0.90 * Double(outcomes.count))
    }
}
