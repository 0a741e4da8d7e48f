import Foundation

extension HTMLReportRenderer {
    /// The field analysis: split check first, one row per rollout arm, each arm against the control.
    func fieldSection(_ field: FieldAnalysis) -> String {
        typealias F = FieldFormatting
        var out = "<h2>Field: <code>\(escape(field.feature))</code> config v\(field.configVersion), control "
            + "<code>\(escape(field.control))</code></h2>\n"
        let mismatch = field.sampleRatio?.mismatch ?? true
        out += "<p class=\"\(mismatch ? "fail" : "pass")\">"
            + escape(MarkdownReportRenderer.sampleRatioLine(field.sampleRatio).replacingOccurrences(of: "**", with: "")
                .replacingOccurrences(of: "`", with: "")) + "</p>\n"
        if let design = field.design { out += "<p class=\"meta\">\(escape(F.designLine(design)))</p>\n" }
        out += table(
            ["arm", "variants", "events", "installs", "adherence", "fallback", "errors", "latency p50 / p95 ms", "cost / 1k"],
            field.arms.map { arm in
                [
                    "<code>\(escape(arm.name))</code>", escape(arm.variants.joined(separator: ", ")), "\(arm.events)",
                    "\(arm.installs)", F.rate(arm.adherence), F.rate(arm.fallback), F.rate(arm.errors),
                    arm.latency.map { "\(F.number($0.p50)) / \(F.number($0.p95))" } ?? "–",
                    escape(arm.costText),
                ]
            })
        out += ruleBranchTable(field.ruleBranches)
        out += table(
            ["arm vs control", "metric", "installs (events)", "difference", "95% CI", "always-valid CI",
             "p (Holm, always-valid)", "MDE", "verdict"],
            (field.comparisons + (field.segments ?? []).flatMap(\.comparisons)).map { c in
                [
                    "<code>\(escape(c.arm))</code> vs <code>\(escape(c.control))</code>"
                        + (c.segment.map { " (\(escape($0)))" } ?? ""), escape(c.metric), F.units(c.installs),
                    F.number(c.difference), "[\(F.number(c.lower)), \(F.number(c.upper))] (\(escape(c.intervalMethod)))",
                    c.sequentialLower.map { "[\(F.number($0)), \(F.number(c.sequentialUpper ?? 0))]" } ?? "–",
                    c.adjustedPValue.map { F.number($0) } ?? "–", c.minimumDetectableEffect.map { F.number($0) } ?? "–",
                    escape(F.verdict(c)),
                ]
            })
        let prePeriod = FieldFormatting.prePeriodLine(field.prePeriod)
        if !prePeriod.isEmpty { out += "<p class=\"meta\">\(escape(prePeriod))</p>\n" }
        return out + "<p class=\"meta\">\(escape(field.method))</p>\n"
    }

    /// The input rules' branches, descriptive: the same note as in Markdown, then one row per branch.
    private func ruleBranchTable(_ branches: [FieldRuleBranch]?) -> String {
        typealias F = FieldFormatting
        guard let branches else { return "" }
        return "<h3>Input rules (descriptive)</h3>\n<p class=\"meta\">\(escape(F.ruleBranchNote))</p>\n"
            + table(
                ["rule", "arms", "events", "installs", "adherence", "latency p50 / p95 ms", "cost / 1k"],
                branches.map { branch in
                    let row = branch.figures
                    return [
                        branch.rule.map { "<code>\(escape($0))</code>" } ?? "own route",
                        escape(branch.arms.joined(separator: ", ")), "\(row.events)", "\(row.installs)", F.rate(row.adherence),
                        row.latency.map { "\(F.number($0.p50)) / \(F.number($0.p95))" } ?? "–", escape(row.costText),
                    ]
                })
    }
}
