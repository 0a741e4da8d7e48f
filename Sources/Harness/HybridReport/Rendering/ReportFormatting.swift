import Foundation

/// Number formats shared by the renderers, so Markdown, HTML and JUnit (and `hybrid view`) print the same figure the
/// same way.
public enum ReportFormatting {
    static func percent(_ rate: Double) -> String { String(format: "%.1f%%", rate * 100) }

    static func percentInterval(_ lower: Double, _ upper: Double) -> String {
        String(format: "[%.1f, %.1f]", lower * 100, upper * 100)
    }

    static func proportion(_ p: ProportionSummary?) -> String {
        guard let p else { return "—" }
        // With repeats (or installs) the interval counts units, not results: say its n, so "60/60" beside a bound
        // on 30 cases does not read as 60 independent trials.
        let n = p.units.flatMap { $0 == p.total ? nil : ", interval on n = \($0)" } ?? ""
        return "\(percent(p.rate)) \(percentInterval(p.lower, p.upper)) (\(p.passed)/\(p.total)\(n))"
    }

    /// A quality score with three decimals.
    public static func score(_ value: Double) -> String { String(format: "%.3f", value) }

    static func scoreSummary(_ s: ScoreSummary?) -> String {
        guard let s else { return "—" }
        guard let lower = s.lower, let upper = s.upper else { return "\(score(s.mean)) (n = \(s.count))" }
        return "\(score(s.mean)) [\(score(lower)), \(score(upper))]"
    }

    /// Milliseconds: one decimal below 100, none above; "—" for nil.
    public static func ms(_ value: Double?) -> String {
        guard let value else { return "—" }
        return value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    static func p50p95(_ d: DistributionSummary?) -> String {
        guard let d else { return "—" }
        return "\(ms(d.p50)) / \(ms(d.p95))"
    }

    static func p50p95p99(_ d: DistributionSummary?) -> String {
        guard let d else { return "—" }
        return "\(ms(d.p50)) / \(ms(d.p95)) / \(ms(d.p99))"
    }

    /// Queueing percentiles and how many samples had server timings, e.g. `1 / 240 / 1300 (12)`; "—" for nil.
    static func queueing(_ d: DistributionSummary?) -> String {
        guard let d else { return "—" }
        return "\(p50p95p99(d)) (\(d.count))"
    }

    /// US dollars: cents from $1, four decimals below; "—" for nil.
    public static func usd(_ value: Double?) -> String {
        guard let value else { return "—" }
        if value == 0 { return "$0" }
        return value >= 1 ? String(format: "$%.2f", value) : String(format: "$%.4f", value)
    }

    static func number(_ value: Double?) -> String {
        guard let value else { return "—" }
        return ComparisonVerdict.defaultFormat(value)
    }

    static func pValue(_ value: Double?) -> String {
        guard let value else { return "—" }
        return value < 0.001 ? "< 0.001" : String(format: "%.3f", value)
    }

    static func tokens(_ t: TokenSummary) -> (input: String, output: String) {
        let mark = t.estimatedCount > 0 ? "*" : ""
        return ("\(t.promptTokens)\(mark)", "\(t.completionTokens)\(mark)")
    }

    /// A comparison's difference in the metric's units: percentage points for adherence, ms for latency.
    static func difference(_ c: PairedComparison) -> String {
        if c.metric == "adherence" {
            let interval = c.lower.map { l in String(format: " [%.1f, %.1f]", l * 100, (c.upper ?? l) * 100) } ?? ""
            return String(format: "%+.1f pp", c.difference * 100) + interval
        }
        let unit = c.metric.hasPrefix("latency") ? " ms" : ""
        let interval = c.lower.map { l in " [\(number(l)), \(number(c.upper ?? l))]" } ?? ""
        return (c.difference >= 0 ? "+" : "") + number(c.difference) + unit + interval
    }

    static func mde(_ c: PairedComparison) -> String {
        guard let value = c.minimumDetectableEffect else { return "—" }
        if c.metric == "adherence" { return String(format: "%.1f pp", value * 100) }
        return number(value) + (c.metric.hasPrefix("latency") ? " ms" : "")
    }

    /// One arm's result on one case in a few words: `pass`, `fail: max_chars (312 characters, limit 280)`,
    /// `error timeout: …`, `unchecked`, or `no result`.
    static func outcome(_ o: CaseOutcome) -> String {
        if let error = o.error { return "error \(error.kind): \(error.message)" }
        switch o.passed {
        case true?: return "pass"
        case false?:
            let checks = o.failedChecks.map { check in check.name + (check.message.map { " (\($0))" } ?? "") }
            return "fail" + (checks.isEmpty ? "" : ": " + checks.joined(separator: "; "))
        case nil: return o.output == nil ? "no result" : "unchecked"
        }
    }

    /// "case `c1` #0"-style label parts shared by the renderers.
    static func caseLabel(_ caseID: String, _ repeatIndex: Int) -> String { "\(caseID) #\(repeatIndex)" }

    static func errors(_ arm: ArmSummary) -> String {
        guard arm.errorCount > 0 else { return "0" }
        let kinds = arm.errorsByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(arm.errorCount) (\(kinds))"
    }
}
