import Foundation
import HybridCalibration

/// `hybrid-bench calibrate [--experiments 200] [--only WORD]`: every scenario of the calibration zoo through the
/// real report and recommend code, with the false-decision share (Wilson 95 % interval) and, where there is a true
/// effect, the power beside its anchor (the most power a valid design has on the same data) and its target; exit 1
/// when a null row is above 5 % (upper bound above 8 %) or a powered row misses its target. The table is what
/// `docs/statistics.md` carries.
enum CalibrateBenchmark {
    static func run(_ arguments: BenchmarkArguments) async throws {
        let experiments = arguments.int("experiments", default: 200)
        let only = arguments.strings("only", default: [])
        var rows: [CalibrationZoo.Row] = []
        var failed: [String] = []
        var missed: [String] = []
        for scenario in CalibrationZoo.scenarios()
        where only.isEmpty || only.contains(where: { scenario.name.localizedCaseInsensitiveContains($0) }) {
            let started = Date()
            let row = try await CalibrationZoo.run(scenario, experiments: experiments)
            rows.append(row)
            let share = row.falseShare.map { String(format: "%.1f %% (upper %.1f %%)", $0.proportion * 100, $0.upper * 100) } ?? "–"
            let anchor = row.anchorPower == nil ? "" : " (anchor \(CalibrationZoo.anchor(row)))"
            print(String(format: "calibrate: %@: %d of %d with a false decision, %@%@%@ (%.1f s)",
                         row.scenario, row.falseDecisions, row.experiments, share,
                         row.power.map { String(format: ", power %.1f %%", $0.proportion * 100) } ?? "", anchor,
                         Date().timeIntervalSince(started)))
            if let example = row.example { print("  e.g. \(example)") }
            if row.isNull, let wilson = row.falseShare, wilson.proportion > 0.05 || wilson.upper > 0.08 {
                failed.append(row.scenario)
            }
            if row.missesTarget {
                missed.append(String(format: "%@ (%.1f %%, target %@)", row.scenario, (row.power?.proportion ?? 0) * 100, CalibrationZoo.target(row)))
            }
        }
        if only.isEmpty || only.contains(where: { "staged rollout".localizedCaseInsensitiveContains($0) }) {
            failed += await stagedRollouts(runs: experiments)
        }
        print("")
        print(CalibrationZoo.render(rows))
        if !failed.isEmpty {
            print("calibrate: null scenarios above 5 % (or with an upper bound above 8 %): \(failed.joined(separator: "; "))")
        }
        if !missed.isEmpty { print("calibrate: powered rows below their target: \(missed.joined(separator: "; "))") }
        if !failed.isEmpty || !missed.isEmpty { exit(1) }
    }

    /// The staged rollout's rule over `runs` seeded rollouts of a harmless change (rolled back in at most 5 %) and of a
    /// 10-point error-rate regression (rolled back before the 50 % stage in at least 90 %); the failed rows' names.
    static func stagedRollouts(runs: Int) async -> [String] {
        var failed: [String] = []
        for (name, errorRate) in [("staged rollout, harmless change", 0.0), ("staged rollout, 10-point error-rate regression", 0.10)] {
            let started = Date()
            let outcomes = await RolloutExperiment.calibration(errorRate: errorRate, runs: runs)
            let rolledBack = outcomes.filter { $0.rolledBackAt != nil }.count
            let early = outcomes.filter { ($0.rolledBackAt ?? 100) < 50 }.count
            let harmless = errorRate == 0
            print(String(format: "calibrate: %@: %@ (%.1f s)", name,
                         harmless ? "rolled back in \(rolledBack) of \(runs)" : "rolled back before 50 % in \(early) of \(runs)",
                         Date().timeIntervalSince(started)))
            if harmless ? Double(rolledBack) > 0.05 * Double(runs) : Double(early) < 0.90 * Double(runs) { failed.append(name) }
        }
        return failed
    }
}
