import ArgumentParser
import Foundation
import HybridReport

/// `hybrid plan`: before a run or an experiment, the cases or installs (and days) a stated adherence effect needs
/// under each design HybridAI decides with, from the same calculation `recommend` uses for "about N cases would
/// show it".
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Cases or installs (and days) a stated effect on adherence needs, per design.",
        discussion: """
            Offline, the case is the unit and both arms answer every case (the paired one-sided test recommend \
            claims with); in the field, the install is, in two equal groups: the always-valid test the field report \
            runs (read at any look), a fixed horizon read once, and the planned design (--looks equally spaced \
            looks with Lan–DeMets boundaries, the metric primary: 0.8 of the 90 % of α the planned looks spend). \
            Arms are taken as independent on each case (the most variance a pair can have when nothing is known); \
            two arms that agree on most cases need fewer.
            """)

    @Option(help: "The metric planned for; adherence (a pass rate) is the one supported.")
    var metric = "adherence"

    @Option(help: "The current arm's value, in [0, 1] (0.7: 70 % of answers pass their checks).")
    var baseline: Double

    // Unconditional: a worse arm is planned for with a negative effect, which must not read as a flag.
    @Option(parsing: .unconditional, help: "The difference to detect, not 0 (0.05: five points better; -0.05: five points worse).")
    var effect: Double

    @Option(help: "Looks of the planned field design, equally spaced over its horizon.")
    var looks = 7

    @Option(help: "The planned design's alpha-spending function: obrienFleming (default) or pocock.")
    var spending = "obrienFleming"

    @Option(help: "Installs that join per day, both groups together; prints the days each field design needs.")
    var installsPerDay: Int?

    @Option(help: "Significance level α, in (0, 1).")
    var alpha = 0.05

    @Option(help: "Power, in (0, 1).")
    var power = 0.80

    func validate() throws {
        guard metric == "adherence" else { throw ValidationError("--metric \(metric): only adherence (a pass rate) is planned for") }
        guard (0...1).contains(baseline) else { throw ValidationError("--baseline \(baseline) is outside [0, 1]: it is a pass rate") }
        guard effect != 0, effect.isFinite else { throw ValidationError("--effect 0: name the difference to detect (0.05: five points)") }
        guard (0...1).contains(baseline + effect) else {
            throw ValidationError("--baseline \(baseline) with --effect \(effect) puts the other arm at \(baseline + effect), outside [0, 1]")
        }
        guard looks >= 1 else { throw ValidationError("--looks \(looks): at least 1") }
        guard SpendingFunction(named: spending) != nil else {
            throw ValidationError("--spending: unknown spending function \"\(spending)\" (known: \(SpendingFunction.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha \(alpha) is outside (0, 1)") }
        guard power > 0, power < 1 else { throw ValidationError("--power \(power) is outside (0, 1)") }
        if let installsPerDay, installsPerDay < 1 { throw ValidationError("--installs-per-day \(installsPerDay): at least 1") }
    }

    func run() throws {
        guard let plan = SampleSizePlan(baseline: baseline, effect: effect, alpha: alpha, power: power) else {
            throw ValidationError("--baseline \(baseline) and --effect \(effect) cannot be planned for")
        }
        print(String(format: "adherence %.3g → %.3g (%+.3g), α %.3g, power %.0f %%:", baseline, baseline + effect, effect, alpha, power * 100))
        let offline = plan.offline
        print("  \(offline.design): \(offline.units.map { "\($0) cases" } ?? "not reachable")")
        let field = [
            plan.alwaysValid(), plan.planned(looks: looks, spending: SpendingFunction(named: spending) ?? .obrienFleming),
            plan.fixedHorizon(),
        ]
        for need in field {
            let installs = need.units.map { "\($0) installs per group (\($0 * 2) in all)" } ?? "not reachable"
            var days = ""
            if let units = need.units, let rate = installsPerDay {
                days = String(format: ", about %d days at %d installs a day", Int((Double(units * 2) / Double(rate)).rounded(.up)), rate)
            }
            print("  \(need.design): \(installs)\(days)")
        }
        print("Repeats (--repeat k) measure each case's noise, not more cases: plan cases. The planned design is the report's `design` (docs/field-experiments.md); the fixed horizon is the most a single look could do.")
    }
}
