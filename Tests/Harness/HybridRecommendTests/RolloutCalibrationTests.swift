import Foundation
import HybridCalibration
import Testing

/// The staged rollout's decision rule (`RolloutController`, as `hybrid rollout step` runs it) over 40 seeded
/// rollouts each: a harmless change is rolled back in at most 5 % of them over all its stages, and a change that
/// raises the error rate by 10 points is rolled back before the 50 % stage in at least 90 %. 4,000 installs, a
/// look every 6 hours, a stage of at least a day and 20 installs per group (the calibration plan). Sized to show
/// the rule works; the rates themselves are measured over 200 rollouts each by `hybrid-bench calibrate` (its
/// "staged rollout" rows), which is where a drift in them shows.
@Suite("Staged rollouts: false rollbacks and missed regressions")
struct RolloutCalibrationTests {
    /// 40, or `HYBRID_ROLLOUT_RUNS` when set.
    static let runs = ProcessInfo.processInfo.environment["HYBRID_ROLLOUT_RUNS"].flatMap(Int.init) ?? 40

    @Test("a harmless change: rolled back in at most 5 % of the rollouts, and it completes")
    func harmlessChangesAreNotRolledBack() async {
        let outcomes = await RolloutExperiment.calibration(errorRate: 0, runs: Self.runs)
        let rolledBack = outcomes.filter { $0.rolledBackAt != nil }
        print("rollout calibration: harmless change rolled back in \(rolledBack.count) of \(outcomes.count) (stages: \(rolledBack.compactMap(\.rolledBackAt)))")
        #expect(Double(rolledBack.count) <= 0.05 * Double(outcomes.count))
        let stalled = outcomes.filter { $0.rolledBackAt == nil && !$0.completed }
        #expect(stalled.isEmpty, "\(stalled.count) harmless rollouts neither completed nor rolled back in 12 days")
    }

    @Test("a 10-point error-rate regression: rolled back before the 50 % stage in at least 90 % of the rollouts")
    func regressionsAreRolledBackEarly() async {
        let outcomes = await RolloutExperiment.calibration(errorRate: 0.10, runs: Self.runs)
        let early = outcomes.filter { ($0.rolledBackAt ?? 100) < 50 }
        let byStage = Dictionary(grouping: outcomes.compactMap(\.rolledBackAt), by: { $0 }).mapValues(\.count)
        let installs = outcomes.compactMap(\.armInstallsAtRollback).sorted()
        print("rollout calibration: 10-point regression rolled back before 50 % in \(early.count) of \(outcomes.count); by stage \(byStage.sorted { $0.key < $1.key }); arm installs at rollback median \(installs.isEmpty ? 0 : installs[installs.count / 2])")
        #expect(Double(early.count) >= 0.90 * Double(outcomes.count))
    }
}
