import Foundation

/// Renders a ``RunReport`` as GitHub-flavoured Markdown for a PR comment or `$GITHUB_STEP_SUMMARY`: failed gates
/// and short per-feature tables first, then collapsible details (constraints, latency, tokens and cost, every
/// comparison, worst cases, the paired arms side by side) and, for `compare`, the flipped cases. Arms that were
/// never sent appear once, as "not measured: REASON".
///
/// Every figure comes from the report. Output stays under ``maximumCharacters`` (GitHub comments hold 65,536):
/// when the full text is longer, case listings (worst cases, side by side, flips) are dropped first, then the
/// details, with a note saying so.
public struct MarkdownReportRenderer: Sendable {
    /// The longest output produced.
    public var maximumCharacters: Int

    /// A renderer; the default limit leaves room under GitHub's 65,536-character comment limit.
    public init(maximumCharacters: Int = 60_000) {
        self.maximumCharacters = maximumCharacters
    }

    /// The Markdown text.
    public func render(_ report: RunReport) -> String {
        let full = document(report, worstCases: true, details: true)
        if full.count <= maximumCharacters { return full }
        let noWorst = document(report, worstCases: false, details: true)
            + "\n_Worst cases omitted (with the side by side and flipped cases) to fit the comment size limit; see report.html._\n"
        if noWorst.count <= maximumCharacters { return noWorst }
        let short = document(report, worstCases: false, details: false)
            + "\n_Details omitted to fit the comment size limit; see report.html and report.json._\n"
        if short.count <= maximumCharacters { return short }
        return String(short.prefix(maximumCharacters - 80)) + "\n\n_…truncated; see report.html._\n"
    }

    /// First, before any figure: the models that answered nothing, each with its first distinct reasons in full.
    private func unansweredSection(_ models: [UnansweredModel]) -> String {
        guard !models.isEmpty else { return "" }
        var out = ""
        for model in models {
            out += "**`\(model.modelID)` answered 0 of \(model.results) results**; every figure of it below is empty. Why:\n\n"
            for reason in model.reasons { out += "```\n\(reason)\n```\n" }
            out += "\n"
        }
        return out
    }

    private func document(_ report: RunReport, worstCases: Bool, details: Bool) -> String {
        var out = "## Eval report: run `\(report.runID)`\n\n"
        out += unansweredSection(report.unansweredModels)
        out += runLine(report) + "\n\n"
        out += JudgeSection(report).markdown()
        if let gates = report.gates { out += gateSection(gates) }
        // The split check and the arm comparison come first: a broken split invalidates every figure below.
        if let field = report.field { out += fieldSection(field) }
        for feature in report.features {
            out += summarySection(feature)
        }
        if let baseline = report.baseline { out += baselineSection(baseline, cases: worstCases) }
        if details {
            out += "### Details\n\n"
            for feature in report.features {
                out += detailSection(feature, worstCases: worstCases)
            }
        }
        out += methodLine(report.settings)
        return out
    }

    private func runLine(_ report: RunReport) -> String {
        var parts = ["\(report.resultCount) results"]
        if let run = report.run {
            parts.insert("status **\(run.status)**", at: 0)
            parts.append("dataset `\(run.datasetPath)`")
            if let version = run.configVersion { parts.append("config v\(version)") }
            if let labels = run.labels, !labels.isEmpty {
                // The config was resolved for these labels: the conditions' overrides they select are in the run.
                parts.append("as an install with " + labels.sorted { $0.key < $1.key }.map { "`\($0.key)=\($0.value)`" }.joined(separator: ", "))
            }
            if run.skippedInvalidLines > 0 { parts.append("\(run.skippedInvalidLines) invalid dataset lines skipped") }
            if let source = run.rescoredFrom {
                parts.append("re-scored from `\(source)` without model calls"
                    + (run.rescoreChanges.map { " (" + inline($0.joined(separator: "; ")) + ")" } ?? ""))
            }
        }
        return parts.joined(separator: " · ")
    }

    private func gateSection(_ gates: GateOutcome) -> String {
        let failures = gates.failures
        let skipped = gates.results.filter { $0.status == .skipped }.count
        var out = "### Gates\n\n"
        if failures.isEmpty {
            out += "✅ All \(gates.results.count - skipped) gates passed"
            out += skipped > 0 ? " (\(skipped) skipped for lack of data).\n\n" : ".\n\n"
            return out
        }
        out += "❌ **\(failures.count) of \(gates.results.count) gates failed**\n\n"
        out += "| feature | arm | gate | value | threshold | why |\n|---|---|---|---|---|---|\n"
        for failure in failures {
            out += row([
                failure.feature, "`\(failure.armID)`", failure.gate, ReportFormatting.number(failure.actual),
                ReportFormatting.number(failure.threshold), failure.message,
            ])
        }
        return out + "\n"
    }

    private func summarySection(_ feature: FeatureReport) -> String {
        var out = "### \(feature.feature)\n\n"
        if let repeats = feature.repeats { out += "\(repeats.caption).\n\n" }
        var header = ["arm", "tier", "n", "errors", "adherence [95% CI]"]
        header += feature.scorers.map { "\($0) [95% CI]" }
        header += ["total ms p50 / p95", "cost / 1k"]
        out += row(header) + row(header.map { _ in "---" })
        for arm in feature.arms where arm.notMeasured == nil {
            var cells = [
                "`\(arm.armID)`" + (arm.armID == feature.starredArm ? " ★" : ""), arm.tier, "\(arm.count)",
                ReportFormatting.errors(arm), ReportFormatting.proportion(arm.adherence),
            ]
            cells += feature.scorers.map { ReportFormatting.scoreSummary(arm.quality($0)) }
            cells += [ReportFormatting.p50p95(arm.latency.totalMs), ReportFormatting.usd(arm.cost?.per1kRequestsUSD)]
            out += row(cells)
        }
        out += "\n"
        if let recommendation = feature.recommendation { out += "★ `hybrid recommend`: \(inline(recommendation))\n\n" }
        if let curve = feature.costQualityCurve { out += curve.markdown() + "\n\n" }
        out += toolCallTable(feature)
        for arm in feature.arms {
            if let reason = arm.notMeasured { out += "- `\(arm.armID)`: not measured: \(inline(reason))\n" }
        }
        if feature.arms.contains(where: { $0.notMeasured != nil }) { out += "\n" }
        if !feature.comparisons.isEmpty {
            out += "Paired comparisons (same cases; Holm-adjusted):\n\n"
            for comparison in feature.comparisons {
                out += "- **\(comparison.metric)**: \(comparison.verdict)\(discordant(comparison))\n"
            }
            out += "\n"
        }
        return out
    }

    /// Tool-call accuracy up front for a feature whose cases expect tool calls: per arm, the share of results whose
    /// calls matched (and, where checked, came in order with valid arguments), with Wilson intervals.
    private func toolCallTable(_ feature: FeatureReport) -> String {
        let names = ["tool_call_match", "tool_call_sequence", "tool_arguments"].filter(feature.constraintNames.contains)
        guard names.first == "tool_call_match" else { return "" }
        let header = ["arm"] + names.map { "\($0) [95% CI]" }
        var out = "Tool calls (errors count as failures):\n\n" + row(header) + row(header.map { _ in "---" })
        for arm in feature.arms where arm.notMeasured == nil {
            out += row(["`\(arm.armID)`"] + names.map { name in
                ReportFormatting.proportion(arm.constraints.first { $0.name == name }?.proportion)
            })
        }
        return out + "\n"
    }

    private func discordant(_ comparison: PairedComparison) -> String {
        guard let b = comparison.firstOnlyPassed, let c = comparison.secondOnlyPassed else { return "" }
        return "; discordant pairs \(b) vs \(c)"
    }

    private func baselineSection(_ baseline: BaselineComparison, cases: Bool) -> String {
        var out = "### Against baseline `\(baseline.baselineRunID)`\n\n"
        if baseline.comparisons.isEmpty { out += "No arm appears in both reports.\n\n" }
        if !baseline.comparisons.isEmpty {
            out += row(["feature", "arm", "metric", "n", "current − baseline [95% CI]", "p (Holm)", "result"])
            out += row(Array(repeating: "---", count: 7))
            for c in baseline.comparisons {
                let arm = c.first.split(separator: " [").first.map(String.init) ?? c.first
                let result: String
                switch c.outcome {
                case "first-better": result = "improved"
                case "second-better": result = "**regressed**"
                default: result = "no detectable difference (MDE \(ReportFormatting.mde(c)))"
                }
                let unpaired = c.test == "unpaired-normal" ? " (unpaired)" : ""
                out += row([
                    c.feature, "`\(arm)`", c.metric, "\(c.count)", ReportFormatting.difference(c) + unpaired,
                    ReportFormatting.pValue(c.adjustedPValue), result,
                ])
            }
        }
        if !baseline.unmatchedArms.isEmpty {
            out += "\nIn only one of the two: " + baseline.unmatchedArms.map { "`\($0)`" }.joined(separator: ", ") + "\n"
        }
        if let flips = baseline.flips { out += flipsSection(flips, cases: cases) }
        return out + "\n"
    }

    /// Per arm, pass→fail first, then fail→pass, each with both outputs; capped lists say how many more flipped.
    private func flipsSection(_ flips: CaseFlips, cases: Bool) -> String {
        var out = "\n**Flipped cases** (`\(flips.baselineRunID)` → `\(flips.candidateRunID)`): "
            + "\(flips.passToFailCount) pass→fail, \(flips.failToPassCount) fail→pass\n\n"
        guard cases else { return out }
        for arm in flips.arms where arm.passToFailCount + arm.failToPassCount > 0 {
            out += "<details><summary>\(arm.feature) <code>\(arm.armID)</code>: \(arm.passToFailCount) pass→fail, "
                + "\(arm.failToPassCount) fail→pass of \(arm.pairedCount)</summary>\n\n"
            for (title, list, omitted) in [
                ("pass→fail", arm.passToFail, arm.omittedPassToFail), ("fail→pass", arm.failToPass, arm.omittedFailToPass),
            ] where !list.isEmpty {
                out += "**\(title)**\n\n"
                for flipped in list {
                    out += "- case `\(ReportFormatting.caseLabel(flipped.caseID, flipped.repeatIndex))`: baseline "
                        + inline(ReportFormatting.outcome(flipped.baseline)) + " → now "
                        + inline(ReportFormatting.outcome(flipped.candidate)) + "\n"
                    out += outcomeTexts([("baseline", flipped.baseline), ("now", flipped.candidate)])
                }
                if omitted > 0 { out += "- … and \(omitted) more \(title)\n" }
                out += "\n"
            }
            out += "</details>\n\n"
        }
        return out
    }

    /// The input (once when every side sent the same text) and each side's output, fenced.
    private func outcomeTexts(_ sides: [(label: String, outcome: CaseOutcome)]) -> String {
        var out = ""
        let inputs = Set(sides.compactMap { $0.outcome.input })
        if inputs.count == 1, let input = inputs.first {
            out += fenced("input", input)
        } else {
            for side in sides { if let input = side.outcome.input { out += fenced("input (\(side.label))", input) } }
        }
        for side in sides { if let output = side.outcome.output { out += fenced("output (\(side.label))", output) } }
        return out
    }

    private func sideBySideSection(_ feature: FeatureReport) -> String {
        var out = ""
        for pair in feature.sideBySide ?? [] where !pair.cases.isEmpty {
            out += "<details><summary><b>\(feature.feature)</b> side by side: <code>\(pair.first)</code> vs "
                + "<code>\(pair.second)</code> (\(pair.disagreeCount) of \(pair.pairedCount) cases disagree on pass/fail)</summary>\n\n"
            for paired in pair.cases {
                out += "- case `\(ReportFormatting.caseLabel(paired.caseID, paired.repeatIndex))`: `\(pair.first)` "
                    + inline(ReportFormatting.outcome(paired.first)) + " · `\(pair.second)` "
                    + inline(ReportFormatting.outcome(paired.second)) + "\n"
                out += outcomeTexts([(pair.first, paired.first), (pair.second, paired.second)])
            }
            if pair.omittedCount > 0 { out += "- … and \(pair.omittedCount) more paired cases\n" }
            out += "\n</details>\n\n"
        }
        return out
    }

    private func detailSection(_ feature: FeatureReport, worstCases: Bool) -> String {
        var out = "<details><summary><b>\(feature.feature)</b>: constraints, latency, tokens, comparisons, worst cases</summary>\n\n"
        if !feature.constraintNames.isEmpty {
            let header = ["arm"] + feature.constraintNames
            out += row(header) + row(header.map { _ in "---" })
            for arm in feature.arms where arm.notMeasured == nil {
                out += row(["`\(arm.armID)`"] + feature.constraintNames.map { name in
                    ReportFormatting.proportion(arm.constraints.first { $0.name == name }?.proportion)
                })
            }
            out += "\n"
        }
        // The queueing column only appears when a server reported its own timings (llama.cpp).
        let queueing = feature.arms.contains { $0.notMeasured == nil && $0.latency.queueingMs != nil }
        out += row(["arm", "latency n", "TTFT ms p50 / p95 / p99", "total ms p50 / p95 / p99", "decode tok/s p50",
                    "cold starts (total ms p50)", "excluded: cache / retried / errors"]
                   + (queueing ? ["queueing ms p50 / p95 / p99 (n)"] : []))
        out += row(Array(repeating: "---", count: queueing ? 8 : 7))
        for arm in feature.arms where arm.notMeasured == nil {
            let latency = arm.latency
            let cold = latency.coldStartTotalMs.map { "\(arm.coldStarts) (\(ReportFormatting.ms($0.p50)))" } ?? "\(arm.coldStarts)"
            out += row([
                "`\(arm.armID)`", "\(latency.sampleCount)", ReportFormatting.p50p95p99(latency.ttftMs),
                ReportFormatting.p50p95p99(latency.totalMs), ReportFormatting.ms(latency.decodeTokensPerSecond?.p50), cold,
                "\(latency.excludedCacheHits) / \(latency.excludedRetried) / \(latency.excludedErrors)",
            ] + (queueing ? [ReportFormatting.queueing(latency.queueingMs)] : []))
        }
        out += "\n"
        out += row(["arm", "cache hits", "tokens in", "tokens out", "cost total", "cost / 1k"])
        out += row(Array(repeating: "---", count: 6))
        var anyEstimated = false
        for arm in feature.arms where arm.notMeasured == nil {
            let tokens = ReportFormatting.tokens(arm.tokens)
            anyEstimated = anyEstimated || arm.tokens.estimatedCount > 0
            out += row([
                "`\(arm.armID)`", "\(arm.cacheHits)", tokens.input, tokens.output, ReportFormatting.usd(arm.cost?.totalUSD),
                ReportFormatting.usd(arm.cost?.per1kRequestsUSD),
            ])
        }
        if anyEstimated { out += "\n\\* includes token counts estimated from text length, not reported by the provider.\n" }
        out += "\n"
        if !feature.comparisons.isEmpty {
            out += row(["metric", "first", "second", "n", "first − second [95% CI]", "p", "p (Holm)", "MDE", "discordant", "test"])
            out += row(Array(repeating: "---", count: 10))
            for c in feature.comparisons {
                out += row([
                    c.metric, "`\(c.first)`", "`\(c.second)`", "\(c.count)", ReportFormatting.difference(c),
                    ReportFormatting.pValue(c.pValue), ReportFormatting.pValue(c.adjustedPValue), ReportFormatting.mde(c),
                    c.firstOnlyPassed.map { "\($0) / \(c.secondOnlyPassed ?? 0)" } ?? "—", "\(c.test), \(c.method)",
                ])
            }
            out += "\n"
        }
        if worstCases, !feature.worstCases.isEmpty {
            out += "**Worst cases**\n\n"
            for worst in feature.worstCases {
                out += worstCase(worst)
            }
        }
        out += "</details>\n\n"
        if worstCases { out += sideBySideSection(feature) }
        return out
    }

    private func worstCase(_ worst: WorstCase) -> String {
        var out = "- `\(worst.armID)` case `\(worst.caseID)` #\(worst.repeatIndex): **\(worst.reason)**"
        if let error = worst.error { out += " — \(error.kind): \(inline(error.message))" }
        for check in worst.failedConstraints {
            out += " — `\(check.name)` failed"
            if let message = check.message { out += ": \(inline(message))" }
            if let observed = check.observed { out += " (observed `\(inline(observed).replacingOccurrences(of: "`", with: "'"))`)" }
        }
        if !worst.scores.isEmpty {
            out += " — scores " + worst.scores.sorted { $0.key < $1.key }.map { "\($0.key) \(ReportFormatting.score($0.value))" }
                .joined(separator: ", ")
        }
        out += "\n"
        if let input = worst.input { out += fenced("input", input) }
        if let output = worst.output { out += fenced("output", output) }
        return out
    }

    private func methodLine(_ settings: ReportSettings) -> String {
        "<sub>Adherence: Wilson \(Int((settings.confidenceLevel * 100).rounded()))% intervals, errors count as failures. "
            + "Quality and paired differences: bootstrap (\(settings.bootstrapResamples) resamples, seed 0x\(settings.bootstrapSeed); "
            + "normal approximation above n = \(settings.bootstrapMaximumResampledCount)); their p-values from sign flips "
            + "(exact). Pass/fail pairs: McNemar exact. Repeats of a case are reduced to one value per case first. "
            + "p-values Holm-adjusted, α = \(settings.alpha); MDE at power \(settings.power). "
            + "Latency excludes cache hits, retries, cold starts and errors. ★ = the arm `hybrid recommend` would serve first, with its reason under the feature's table; where no recommendation was made, the best arm: highest adherence, then quality, then median latency, among the arms no other arm beats on both quality and cost.</sub>\n"
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.map(cell).joined(separator: " | ") + " |\n"
    }

    private func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private func inline(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
    }

    /// A fenced block whose fence is longer than any backtick run in the text, so outputs cannot break out.
    private func fenced(_ label: String, _ text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return "  \(label):\n\n  \(fence)text\n" + text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "  " + $0 }.joined(separator: "\n") + "\n  \(fence)\n\n"
    }
}
