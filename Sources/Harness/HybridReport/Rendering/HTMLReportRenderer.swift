import Foundation

/// Renders a ``RunReport`` as one self-contained HTML page: inline CSS and inline SVG charts, no scripts, no
/// network (it opens from a CI artifact or a file:// URL).
///
/// Per feature: the arm table, charts (latency distribution per arm, quality vs cost with the Pareto front,
/// adherence bars with Wilson intervals), the comparisons, then details, worst cases and the paired arms side by
/// side; for `compare`, the flipped cases. Arms never sent appear once, as "not measured: REASON". Every figure
/// comes from the report; the HTML is escaped throughout, so model outputs cannot inject markup.
public struct HTMLReportRenderer: Sendable {
    /// A renderer.
    public init() {}

    /// The HTML document.
    public func render(_ report: RunReport) -> String {
        var body = "<h1>Eval report: run <code>\(escape(report.runID))</code></h1>\n"
        for model in report.unansweredModels {
            body += "<section class=\"gates\"><p><strong><code>\(escape(model.modelID))</code> answered 0 of \(model.results) "
                + "results</strong>; every figure of it below is empty. Why:</p>\n"
            for reason in model.reasons { body += "<pre>\(escape(reason))</pre>\n" }
            body += "</section>\n"
        }
        body += "<p class=\"meta\">\(escape(runLine(report)))</p>\n"
        body += judgeSection(report)
        if let gates = report.gates { body += gateSection(gates) }
        if let field = report.field { body += fieldSection(field) }
        for feature in report.features {
            body += featureSection(feature)
        }
        if let baseline = report.baseline { body += baselineSection(baseline) }
        body += "<p class=\"meta\">Adherence: Wilson intervals, errors count as failures. Quality and paired differences: bootstrap "
            + "(\(report.settings.bootstrapResamples) resamples, seed 0x\(escape(report.settings.bootstrapSeed))). "
            + "Paired differences' p-values from sign flips (exact). Pass/fail pairs: McNemar exact. Repeats of a case "
            + "are reduced to one value per case first. p-values Holm-adjusted, α = \(report.settings.alpha). "
            + "Latency excludes cache hits, retries, cold starts and errors.</p>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Eval report \(escape(report.runID))</title>
            <style>\(Self.css)</style></head>
            <body>
            \(body)</body></html>

            """
    }

    private func runLine(_ report: RunReport) -> String {
        var parts = ["\(report.resultCount) results"]
        if let run = report.run {
            parts.insert("status \(run.status)", at: 0)
            parts.append("dataset \(run.datasetPath)")
            parts.append("started \(run.startedAt)")
            if let version = run.configVersion { parts.append("config v\(version)") }
            if let source = run.rescoredFrom {
                parts.append("re-scored from \(source) without model calls"
                    + (run.rescoreChanges.map { " (" + $0.joined(separator: "; ") + ")" } ?? ""))
            }
        }
        return parts.joined(separator: " · ")
    }

    private func gateSection(_ gates: GateOutcome) -> String {
        var out = "<section class=\"gates\"><h2>Gates</h2>\n"
        let failures = gates.failures
        out += failures.isEmpty
            ? "<p class=\"pass\">All gates passed.</p>\n"
            : "<p class=\"fail\">\(failures.count) of \(gates.results.count) gates failed.</p>\n"
        let columns = ["feature", "arm", "gate", "status", "value", "threshold", "detail"]
        func rows(_ results: [GateResult]) -> [[String]] {
            results.map { result in
                [
                    escape(result.feature), code(result.armID), escape(result.gate),
                    "<span class=\"\(result.status.rawValue)\">\(result.status.rawValue)</span>",
                    escape(ReportFormatting.number(result.actual)), escape(ReportFormatting.number(result.threshold)),
                    escape(result.message),
                ]
            }
        }
        if !failures.isEmpty { out += table(columns, rows(failures), className: "failed-gates") }
        out += "<details><summary>All \(gates.results.count) gate results</summary>\n"
        out += table(columns, rows(gates.results), className: "all-gates") + "</details>\n"
        return out + "</section>\n"
    }

    private func baselineSection(_ baseline: BaselineComparison) -> String {
        var out = "<section><h2>Against baseline <code>\(escape(baseline.baselineRunID))</code></h2>\n"
        out += table(
            ["feature", "metric", "n", "current − baseline [95% CI]", "p (Holm)", "verdict"],
            baseline.comparisons.map { c in
                [
                    escape(c.feature), escape(c.metric), "\(c.count)", escape(ReportFormatting.difference(c)),
                    escape(ReportFormatting.pValue(c.adjustedPValue)),
                    "<span class=\"\(c.outcome == "second-better" ? "failed" : "")\">\(escape(c.verdict))</span>",
                ]
            }
        )
        if let flips = baseline.flips { out += flipsSection(flips) }
        return out + "</section>\n"
    }

    private func flipsSection(_ flips: CaseFlips) -> String {
        var out = "<h3>Flipped cases</h3>\n<p>\(code(flips.baselineRunID)) → \(code(flips.candidateRunID)): "
            + "<span class=\"failed\">\(flips.passToFailCount) pass→fail</span>, "
            + "<span class=\"passed\">\(flips.failToPassCount) fail→pass</span></p>\n"
        for arm in flips.arms where arm.passToFailCount + arm.failToPassCount > 0 {
            out += "<h4>\(escape(arm.feature)) \(code(arm.armID)): \(arm.passToFailCount) pass→fail, "
                + "\(arm.failToPassCount) fail→pass of \(arm.pairedCount)</h4>\n"
            for (title, list, omitted) in [
                ("pass→fail", arm.passToFail, arm.omittedPassToFail), ("fail→pass", arm.failToPass, arm.omittedFailToPass),
            ] where !list.isEmpty {
                for flipped in list {
                    out += pairedCase(
                        title: "\(title): case \(code(ReportFormatting.caseLabel(flipped.caseID, flipped.repeatIndex)))",
                        sides: [("baseline", flipped.baseline), ("now", flipped.candidate)])
                }
                if omitted > 0 { out += "<p class=\"meta\">… and \(omitted) more \(title)</p>\n" }
            }
        }
        return out
    }

    private func sideBySideSection(_ feature: FeatureReport) -> String {
        var out = ""
        for pair in feature.sideBySide ?? [] where !pair.cases.isEmpty {
            out += "<h3>Side by side: \(code(pair.first)) vs \(code(pair.second))</h3>\n"
                + "<p class=\"meta\">\(pair.disagreeCount) of \(pair.pairedCount) cases disagree on pass/fail; "
                + "disagreements first, then cases both fail, then the largest score gap.</p>\n"
            for paired in pair.cases {
                out += pairedCase(
                    title: "case \(code(ReportFormatting.caseLabel(paired.caseID, paired.repeatIndex)))",
                    sides: [(pair.first, paired.first), (pair.second, paired.second)])
            }
            if pair.omittedCount > 0 { out += "<p class=\"meta\">… and \(pair.omittedCount) more paired cases</p>\n" }
        }
        return out
    }

    /// One case, two columns: each side's verdict, input (once when the same), output and scores.
    private func pairedCase(title: String, sides: [(label: String, outcome: CaseOutcome)]) -> String {
        var out = "<details class=\"case\"><summary>\(title): "
        out += sides.map { side in
            "\(code(side.label)) <span class=\"\(verdictClass(side.outcome))\">\(escape(ReportFormatting.outcome(side.outcome)))</span>"
        }.joined(separator: " · ")
        out += "</summary>\n<table class=\"side-by-side\"><thead><tr>"
            + sides.map { "<th>\(escape($0.label))</th>" }.joined() + "</tr></thead><tbody>\n"
        let inputs = sides.map { $0.outcome.input }
        if Set(inputs.compactMap { $0 }).count == 1, let input = inputs.compactMap({ $0 }).first {
            out += "<tr><td colspan=\"\(sides.count)\"><b>input</b><pre>\(escape(input))</pre></td></tr>\n"
        } else {
            out += "<tr>" + inputs.map { "<td><b>input</b><pre>\(escape($0 ?? "—"))</pre></td>" }.joined() + "</tr>\n"
        }
        out += "<tr>" + sides.map { "<td><b>output</b><pre>\(escape($0.outcome.output ?? "—"))</pre></td>" }.joined() + "</tr>\n"
        if sides.contains(where: { !$0.outcome.scores.isEmpty }) {
            out += "<tr>" + sides.map { side in
                "<td>" + escape(side.outcome.scores.sorted { $0.key < $1.key }
                    .map { "\($0.key) \(ReportFormatting.score($0.value))" }.joined(separator: ", ")) + "</td>"
            }.joined() + "</tr>\n"
        }
        return out + "</tbody></table></details>\n"
    }

    private func verdictClass(_ outcome: CaseOutcome) -> String {
        outcome.error != nil || outcome.passed == false ? "failed" : outcome.passed == true ? "passed" : ""
    }

    /// One feature's section (arm table, charts, comparisons, constraints, worst cases) without the page around
    /// it, for pages that embed it (`hybrid view`); style it with ``css``.
    /// The judge's reliability and the pairwise judgements of the run; empty when no judge scored it.
    public func judgeSection(_ report: RunReport) -> String {
        JudgeSection(report).html(escape: escape)
    }

    public func featureSection(_ feature: FeatureReport) -> String {
        var out = "<section class=\"feature\"><h2>\(escape(feature.feature))</h2>\n"
        if let repeats = feature.repeats { out += "<p class=\"unit\">\(escape(repeats.caption)).</p>\n" }
        var header = ["arm", "tier", "n", "errors", "cache hits", "adherence [95% CI]"]
        header += feature.scorers.map { "\($0) [95% CI]" }
        header += ["TTFT ms p50 / p95 / p99", "total ms p50 / p95 / p99", "decode tok/s", "tokens in / out", "cost total", "cost / 1k"]
        let measured = feature.arms.filter { $0.notMeasured == nil }
        // Only when a server reported its own timings (llama.cpp): time in its queue or on the network.
        let queueing = measured.contains { $0.latency.queueingMs != nil }
        if queueing { header.append("queueing ms p50 / p95 / p99 (n)") }
        out += table(header, measured.map { arm in
            let tokens = ReportFormatting.tokens(arm.tokens)
            var cells = [
                code(arm.armID) + (arm.armID == feature.starredArm ? " ★" : ""), escape(arm.tier), "\(arm.count)",
                escape(ReportFormatting.errors(arm)), "\(arm.cacheHits)", escape(ReportFormatting.proportion(arm.adherence)),
            ]
            cells += feature.scorers.map { escape(ReportFormatting.scoreSummary(arm.quality($0))) }
            cells += [
                escape(ReportFormatting.p50p95p99(arm.latency.ttftMs)), escape(ReportFormatting.p50p95p99(arm.latency.totalMs)),
                escape(ReportFormatting.ms(arm.latency.decodeTokensPerSecond?.p50)),
                escape("\(tokens.input) / \(tokens.output)"), escape(ReportFormatting.usd(arm.cost?.totalUSD)),
                escape(ReportFormatting.usd(arm.cost?.per1kRequestsUSD)),
            ]
            if queueing { cells.append(escape(ReportFormatting.queueing(arm.latency.queueingMs))) }
            return cells
        }, className: "arms")
        if let recommendation = feature.recommendation {
            out += "<p class=\"unit\">★ <code>hybrid recommend</code>: \(escape(recommendation))</p>\n"
        }
        if let curve = feature.costQualityCurve {
            out += "<h3>Cost–quality curve (\(escape(curve.feature)))</h3>\n<p>\(escape(curve.summary))</p>\n\(curve.svg())\n"
        }
        for arm in feature.arms {
            if let reason = arm.notMeasured {
                out += "<p class=\"not-measured\">\(code(arm.armID)): not measured: \(escape(reason))</p>\n"
            }
        }
        if feature.arms.contains(where: { $0.tokens.estimatedCount > 0 }) {
            out += "<p class=\"meta\">* token counts include estimates from text length.</p>\n"
        }
        out += "<div class=\"charts\">\n"
        out += HTMLCharts.latency(feature)
        out += HTMLCharts.qualityVersusCost(feature)
        out += HTMLCharts.adherence(feature)
        out += "</div>\n"
        if !feature.comparisons.isEmpty {
            out += "<h3>Paired comparisons</h3>\n<ul class=\"verdicts\">\n"
            for comparison in feature.comparisons {
                out += "<li><b>\(escape(comparison.metric))</b>: \(escape(comparison.verdict))</li>\n"
            }
            out += "</ul>\n"
            out += table(
                ["metric", "first", "second", "n", "first − second [95% CI]", "p", "p (Holm)", "MDE", "discordant", "test"],
                feature.comparisons.map { c in
                    [
                        escape(c.metric), code(c.first), code(c.second), "\(c.count)", escape(ReportFormatting.difference(c)),
                        escape(ReportFormatting.pValue(c.pValue)), escape(ReportFormatting.pValue(c.adjustedPValue)),
                        escape(ReportFormatting.mde(c)),
                        c.firstOnlyPassed.map { "\($0) / \(c.secondOnlyPassed ?? 0)" } ?? "—", escape("\(c.test), \(c.method)"),
                    ]
                }
            )
        }
        if !feature.constraintNames.isEmpty {
            out += "<h3>Constraints</h3>\n"
            out += table(["arm"] + feature.constraintNames, measured.map { arm in
                [code(arm.armID)] + feature.constraintNames.map { name in
                    escape(ReportFormatting.proportion(arm.constraints.first { $0.name == name }?.proportion))
                }
            })
        }
        if !feature.worstCases.isEmpty {
            out += "<h3>Worst cases</h3>\n"
            for worst in feature.worstCases {
                out += worstCase(worst)
            }
        }
        out += sideBySideSection(feature)
        return out + "</section>\n"
    }

    private func worstCase(_ worst: WorstCase) -> String {
        var out = "<details class=\"case\"><summary>\(code(worst.armID)) case \(code(worst.caseID)) #\(worst.repeatIndex): "
            + "<b>\(escape(worst.reason))</b>"
        if let error = worst.error { out += " — \(escape(error.kind))" }
        for check in worst.failedConstraints { out += " — \(escape(check.name)) failed" }
        out += "</summary>\n<dl>"
        if let error = worst.error { out += "<dt>error</dt><dd>\(escape(error.kind)): \(escape(error.message))</dd>" }
        for check in worst.failedConstraints {
            out += "<dt>\(escape(check.name))</dt><dd>\(escape(check.message ?? "failed"))"
            if let observed = check.observed { out += " (observed <code>\(escape(observed))</code>)" }
            out += "</dd>"
        }
        if !worst.scores.isEmpty {
            out += "<dt>scores</dt><dd>" + escape(worst.scores.sorted { $0.key < $1.key }
                .map { "\($0.key) \(ReportFormatting.score($0.value))" }.joined(separator: ", ")) + "</dd>"
        }
        if let input = worst.input { out += "<dt>input</dt><dd><pre>\(escape(input))</pre></dd>" }
        if let output = worst.output { out += "<dt>output</dt><dd><pre>\(escape(output))</pre></dd>" }
        return out + "</dl></details>\n"
    }

    func table(_ header: [String], _ rows: [[String]], className: String? = nil) -> String {
        var out = "<table\(className.map { " class=\"\($0)\"" } ?? "")><thead><tr>"
        out += header.map { "<th>\(escape($0))</th>" }.joined()
        out += "</tr></thead><tbody>\n"
        for cells in rows {
            out += "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    private func code(_ text: String) -> String { "<code>\(escape(text))</code>" }

    func escape(_ text: String) -> String { HTMLCharts.escape(text) }

    /// The stylesheet the report's markup expects.
    public static let css = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1f2328;background:#fff}
        h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}h3{font-size:15px}
        table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}
        th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
        code{white-space:nowrap;font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:1px 4px;border-radius:4px}
        pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;border-radius:6px;max-height:240px;overflow:auto}
        .meta{color:#59636e;font-size:12px}.pass,.passed{color:#1a7f37;font-weight:600}.fail,.failed{color:#d1242f;font-weight:600}
        .skipped{color:#9a6700}.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{border:1px solid #d0d7de;border-radius:6px;background:#fff}
        .chart text{font:11px system-ui,sans-serif;fill:#1f2328}.chart .title{font-weight:600;font-size:12px}
        details.case{margin:6px 0;border:1px solid #d0d7de;border-radius:6px;padding:6px 10px}dt{font-weight:600;margin-top:6px}dd{margin-left:12px}
        table.side-by-side{width:100%;table-layout:fixed}.not-measured{color:#59636e;font-style:italic}
        """
}
