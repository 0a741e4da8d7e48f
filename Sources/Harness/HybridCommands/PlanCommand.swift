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

    @Option(parsing: .unconditional, help: "Looks of the planned field design, equally spaced over its horizon (1 to 100).")
    var looks = 7

    @Option(help: "The planned design's alpha-spending function: obrienFleming (default) or pocock.")
    var spending = "obrienFleming"

    @Option(parsing: .unconditional, help: "Installs that join per day, both groups together; prints the days each field design needs.")
    var installsPerDay: Int?

    @Option(help: "Significance level α, in (0, 1).")
    var alpha = 0.05

    @Option(help: "Power, in (0, 1).")
    var power = 0.80

    func validate() throws {
        guard metric == "adherence" else { throw ValidationError("--metric \(metric): only adherence (a pass rate) is planned for") }
        guard (0...1).contains(baseline) else {
            let hint = baseline > 1 && baseline <= 100 ? String(format: " (%g %% is --baseline %g)", baseline, baseline / 100) : ""
            throw ValidationError("--baseline \(baseline) is outside [0, 1]: it is a pass rate\(hint)")
        }
        guard effect != 0, effect.isFinite else { throw ValidationError("--effect 0: name the difference to detect (0.05: five points)") }
        guard (0...1).contains(baseline + effect) else {
            throw ValidationError("--baseline \(baseline) with --effect \(effect) puts the other arm at \(baseline + effect), outside [0, 1]")
        }
        guard looks >= 1 else { throw ValidationError("--looks \(looks): at least 1") }
        try FieldSplit.checkLooks(looks)
        guard SpendingFunction(named: spending) != nil else { throw ValidationError(FieldSplit.unknownSpending(spending, at: "--spending")) }
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha \(alpha) is outside (0, 1)") }
        guard power > 0, power < 1 else {
            let hint = power > 1 && power < 100 ? String(format: " (%g %% is --power %g)", power, power / 100) : ""
            throw ValidationError("--power \(power) is outside (0, 1)\(hint)")
        }
        if let installsPerDay, installsPerDay < 1 { throw ValidationError("--installs-per-day \(installsPerDay): at least 1") }
    }

    func run() throws {
        guard let plan = SampleSizePlan(baseline: baseline, effect: effect, alpha: alpha, power: power) else {
            throw ValidationError("--baseline \(baseline) and --effect \(effect) cannot be planned for")
        }
        print(String(format: "adherence %.3g → %.3g (%+.3g), α %.3g, power %.0f %%:", baseline, baseline + effect, effect, alpha, power * 100))
        let offline = plan.offline
        print("  \(offline.design): \(offline.units.map { "\($0) cases" } ?? "not reachable")")
        let spendingFunction = SpendingFunction(named: spending) ?? .obrienFleming
        let planned = plan.planned(looks: looks, spending: spendingFunction)
        // Without a primary metric the report gives every one of its six metrics an equal share (Holm).
        let unweighted = plan.planned(
            looks: looks, spending: spendingFunction, share: 0.9 / 6,
            shareText: "no primary metric (a sixth of the 90 %: Holm over the report's six metrics)")
        for need in [plan.alwaysValid(), planned, unweighted, plan.fixedHorizon()] {
            print("  \(need.design): \(installs(need))")
        }
        print("""
            Which to use: a team that can say when it will look plans the looks (the planned line, with the design \
            below in the rollout); one that will read the report whenever it likes keeps the always-valid default; \
            the fixed horizon is the most any single look could do, for comparison. Offline, plan cases: repeats \
            (--repeat k) measure each case's noise, not more cases.
            """)
        if let units = planned.units { print(designLine(installs: units * 2)) }
    }

    /// "  1412 installs per group (2824 in all), about 29 days at 100 installs a day".
    private func installs(_ need: SampleSizePlan.Need) -> String {
        guard let units = need.units else { return "not reachable" }
        var text = "\(units) installs per group (\(units * 2) in all)"
        if let rate = installsPerDay {
            text += String(format: ", about %d days at %d installs a day", Int((Double(units * 2) / Double(rate)).rounded(.up)), rate)
        }
        return text
    }

    /// The rollout's `design` for the planned line, ready to paste (a days horizon when the inflow is known).
    private func designLine(installs: Int) -> String {
        let horizon = installsPerDay.map { "{ \"days\": \(Int((Double(installs) / Double($0)).rounded(.up))) }" }
            ?? "{ \"installs\": \(installs) }"
        return "The planned line's design (rollouts.FEATURE.design): { \"kind\": \"planned\", \"horizon\": \(horizon), "
            + "\"looks\": \(looks), \"spending\": \"\(spending)\", \"primaryMetric\": \"adherence\" }"
    }
}
