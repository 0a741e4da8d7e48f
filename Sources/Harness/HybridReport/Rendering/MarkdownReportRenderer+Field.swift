import Foundation

extension MarkdownReportRenderer {
    /// The field analysis: split check, one row per rollout arm, then each arm against the control.
    func fieldSection(_ field: FieldAnalysis) -> String {
        var out = "### Field: `\(field.feature)` config v\(field.configVersion), control `\(field.control)`\n\n"
        out += Self.sampleRatioLine(field.sampleRatio) + "\n\n"
        if let design = field.design { out += FieldFormatting.designLine(design) + "\n\n" }
        out += "| arm | variants | events | installs | served by | adherence | fallback | errors | latency p50 / p95 ms | TTFT p50 ms | cost / 1k |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|---|\n"
        for arm in field.arms {
            out += "| `\(arm.name)` | \(arm.variants.joined(separator: ", ")) | \(arm.events) | \(arm.installs) | "
                + arm.servedBy.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + " | "
                + [arm.adherence, arm.fallback, arm.errors].map(FieldFormatting.rate).joined(separator: " | ") + " | "
                + (arm.latency.map { "\(FieldFormatting.number($0.p50)) / \(FieldFormatting.number($0.p95))" } ?? "–") + " | "
                + (arm.ttft.map { FieldFormatting.number($0.p50) } ?? "–") + " | \(arm.costText) |\n"
        }
        out += "\n"
        for arm in field.arms {
            guard let hedge = arm.hedge else { continue }
            out += "Hedged requests in `\(arm.name)`: \(FieldFormatting.number(hedge.rate * 100, digits: 1)) % (\(hedge.hedged) of \(hedge.events)); "
                + "served by " + hedge.winsByModel.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; extra cost per 1,000 requests $\(FieldFormatting.number(hedge.extraCostPer1000, digits: 4)) (estimated against the arm's unhedged requests).\n\n"
        }
        out += Self.ruleBranchTable(field.ruleBranches)
        out += Self.comparisonTable(field.comparisons)
        for segment in field.segments ?? [] {
            out += "#### `\(segment.label)` = `\(segment.value)`"
                + (segment.judged ? "" : " (shown, not judged: a group has fewer than \(field.minimumInstalls ?? 0) installs)")
                + "\n\n"
            out += "| arm | events | installs | adherence | fallback | errors | latency p50 / p95 ms |\n|---|---|---|---|---|---|---|\n"
            for arm in segment.arms {
                out += "| `\(arm.name)` | \(arm.events) | \(arm.installs) | "
                    + [arm.adherence, arm.fallback, arm.errors].map(FieldFormatting.rate).joined(separator: " | ") + " | "
                    + (arm.latency.map { "\(FieldFormatting.number($0.p50)) / \(FieldFormatting.number($0.p95))" } ?? "–") + " |\n"
            }
            out += "\n" + Self.comparisonTable(segment.comparisons)
        }
        let prePeriod = FieldFormatting.prePeriodLine(field.prePeriod)
        return out + (prePeriod.isEmpty ? "" : prePeriod + "\n\n") + "_\(field.method)_\n\n"
    }

    /// The input rules' branches, one row each, under the sentence saying they describe and do not compare.
    static func ruleBranchTable(_ branches: [FieldRuleBranch]?) -> String {
        guard let branches else { return "" }
        var out = "#### Input rules (descriptive)\n\n\(FieldFormatting.ruleBranchNote)\n\n"
        out += "| rule | arms | events | installs | served by | adherence | latency p50 / p95 ms | cost / 1k |\n"
        out += "|---|---|---|---|---|---|---|---|\n"
        for branch in branches {
            let row = branch.figures
            out += "| \(branch.rule.map { "`\($0)`" } ?? "own route") | \(branch.arms.map { "`\($0)`" }.joined(separator: ", ")) | "
                + "\(row.events) | \(row.installs) | "
                + row.servedBy.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + " | "
                + FieldFormatting.rate(row.adherence) + " | "
                + (row.latency.map { "\(FieldFormatting.number($0.p50)) / \(FieldFormatting.number($0.p95))" } ?? "–")
                + " | \(row.costText) |\n"
        }
        return out + "\n"
    }

    /// Arm against control, one row per metric, with the installs and events behind each figure.
    static func comparisonTable(_ comparisons: [FieldComparison]) -> String {
        guard !comparisons.isEmpty else { return "" }
        var out = "| arm vs control | metric | installs (events) | difference | 95% CI | always-valid CI | p (Holm, always-valid) | MDE | CUPED | verdict |\n"
        out += "|---|---|---|---|---|---|---|---|---|---|\n"
        for c in comparisons {
            let sequential = c.sequentialLower.map { "[\(FieldFormatting.number($0)), \(FieldFormatting.number(c.sequentialUpper ?? 0))]" } ?? "–"
            out += "| `\(c.arm)` vs `\(c.control)` | \(c.metric) | \(FieldFormatting.units(c.installs)) | \(FieldFormatting.number(c.difference)) | "
                + "[\(FieldFormatting.number(c.lower)), \(FieldFormatting.number(c.upper))] (\(c.intervalMethod)) | \(sequential) | "
                + (c.adjustedPValue.map { FieldFormatting.number($0) } ?? "–") + " | "
                + (c.minimumDetectableEffect.map { FieldFormatting.number($0) } ?? "–") + " | "
                + (c.varianceReduction.map { "−\(FieldFormatting.number($0 * 100, digits: 0)) % var" } ?? "–")
                + " | \(FieldFormatting.verdict(c).replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        return out + "\n"
    }

    static func sampleRatioLine(_ check: SampleRatioMismatch?) -> String {
        guard let check else { return "**Sample ratio: not checked** (configured split unknown; no effect is reported)." }
        let groups = check.groups.map { "`\($0.name)` \($0.observed) installs (expected \(FieldFormatting.number($0.expected)), \(FieldFormatting.number($0.expectedPercent)) %)" }
        let verdict = check.mismatch ? "**SAMPLE RATIO MISMATCH** — the split is broken; no effect is reported" : "Sample ratio OK"
        return "\(verdict): χ² = \(FieldFormatting.number(check.chiSquare)), df = \(check.degreesOfFreedom), p = \(FieldFormatting.number(check.pValue)) "
            + "(flagged below \(SampleRatioMismatch.threshold)); " + groups.joined(separator: ", ") + "."
    }
}

/// Number formats shared by the Markdown and HTML field sections.
enum FieldFormatting {
    /// Why the input rules' rows carry no test, printed above them in every format.
    static let ruleBranchNote =
        "A rule selects requests by what they hold, so each branch differs from the others in its inputs as well as "
        + "in its route: these rows describe what each branch got (adherence on installs, latency, cost) and are not "
        + "compared; a rule's effect is measured by a rollout arm that adds it against installs without."

    static func rate(_ summary: ProportionSummary?) -> String {
        guard let summary else { return "–" }
        return "\(number(summary.rate * 100, digits: 1)) % [\(number(summary.lower * 100, digits: 1)), \(number(summary.upper * 100, digits: 1))]"
    }

    /// "120 / 118 (2,400 / 2,350), n_eff 96 / 101": installs of arm and control, their events, and the effective
    /// number of installs (Kish) the capped weights leave.
    static func units(_ units: FieldUnits?) -> String {
        guard let units else { return "–" }
        let effective = units.armEffective.map { ", n_eff \(number($0, digits: 0)) / \(number(units.controlEffective ?? 0, digits: 0))" } ?? ""
        return "\(units.arm) / \(units.control) (\(units.armEvents) / \(units.controlEvents))" + effective
    }

    /// What CUPED's covariates rest on, in one sentence; empty without earlier events.
    /// The verdict with what it runs over and, under a planned design, the test that governed it.
    static func verdict(_ c: FieldComparison) -> String {
        c.verdict + (c.runningLooks.map { " (running over \($0) looks)" } ?? "") + (c.decidedBy.map { " — \($0)" } ?? "")
    }

    /// "Design: planned: 7 looks over 7 days …, since …; this reading: planned look 3 of 7, t 0.43."
    static func designLine(_ design: FieldDesign.Reading) -> String {
        "Design: \(design.design); since \(ISO8601DateFormatter().string(from: design.since)). This reading: \(design.position)."
    }

    static func prePeriodLine(_ prePeriod: FieldPrePeriod?) -> String {
        guard let p = prePeriod else { return "" }
        return "CUPED pre-period: \(p.installsWithCovariate) of \(p.installs) installs have a covariate from \(p.eventsUsed) "
            + "earlier events sent before the install's first exposure to a rollout; \(p.eventsExcluded) earlier events "
            + "left out (served under a rollout, where the arm could ride in the covariate)."
    }

    static func number(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return "–" }
        if value != 0, abs(value) < 0.001 { return String(format: "%.2e", value) }
        return String(format: "%.\(digits)f", value)
    }
}
