import Foundation
import HybridCalibration

/// `hybrid-bench calibrate [--experiments 200] [--only WORD]`: every scenario of the calibration zoo through the
/// real report and recommend code, with the false-decision share (Wilson 95 % interval) and, where there is a true
/// effect, the power. The table is what `docs/statistics.md` carries.
enum CalibrateBenchmark {
    static func run(_ arguments: BenchmarkArguments) async throws {
        let experiments = arguments.int("experiments", default: 200)
        let only = arguments.strings("only", default: [])
        var rows: [CalibrationZoo.Row] = []
        var failed: [String] = []
        for scenario in CalibrationZoo.scenarios()
        where only.isEmpty || only.contains(where: { scenario.name.localizedCaseInsensitiveContains($0) }) {
            let started = Date()
            let row = try await CalibrationZoo.run(scenario, experiments: experiments)
            rows.append(row)
            let share = row.falseShare.map { String(format: "%.1f %% (upper %.1f %%)", $0.proportion * 100, $0.upper * 100) } ?? "–"
            print(String(format: "calibrate: %@: %d of %d with a false decision, %@%@ (%.1f s)",
                         row.scenario, row.falseDecisions, row.experiments, share,
                         row.power.map { String(format: ", power %.1f %%", $0.proportion * 100) } ?? "",
                         Date().timeIntervalSince(started)))
            if let example = row.example { print("  e.g. \(example)") }
            if row.isNull, let wilson = row.falseShare, wilson.proportion > 0.05 || wilson.upper > 0.08 {
                failed.append(row.scenario)
            }
        }
        print("")
        print(CalibrationZoo.render(rows))
        if !failed.isEmpty {
            print("calibrate: null scenarios above 5 % (or with an upper bound above 8 %): \(failed.joined(separator: "; "))")
            exit(1)
        }
    }
}
