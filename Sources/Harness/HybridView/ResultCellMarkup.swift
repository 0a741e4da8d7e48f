import HybridCore
import HybridReport
import HybridStore

/// How one stored result looks in the grid, the diff and the comparison pages: verdict, output, each check with
/// its failing reason, scores, then latency, tokens and cost. Numbers use the report's formats.
enum ResultCellMarkup {
    /// `is-passed`, `is-failed`, `is-unchecked`, `is-not-measured` or `is-missing`: the CSS class of the result's
    /// cell (prefixed, so the report stylesheet's `.passed` text colour does not turn whole outputs green).
    static func statusClass(_ cell: ResultCell?) -> String {
        guard let cell else { return "is-missing" }
        if cell.notMeasured { return "is-not-measured" }
        switch cell.passed {
        case true?: return "is-passed"
        case false?: return "is-failed"
        case nil: return "is-unchecked"
        }
    }

    /// The verdict word shown at the top of a cell.
    static func verdict(_ cell: ResultCell) -> String {
        switch cell.passed {
        case true?: "pass"
        case false?: "fail"
        case nil: "no checks"
        }
    }

    /// The whole content of a result's cell; `outputLimit` cuts long outputs (the diff page shows them whole).
    static func content(_ cell: ResultCell?, outputLimit: Int? = 2_000) -> HTML {
        var html = HTML()
        guard let cell else {
            html.element("span", [("class", "measure")], text: "no result stored")
            return html
        }
        if cell.notMeasured {
            html.element("span", [("class", "verdict")], text: "not measured")
            html.element("div", [("class", "measure")], text: cell.error?.message ?? "")
            return html
        }
        let verdictClass = cell.passed.map { $0 ? "verdict passed" : "verdict failed" } ?? "verdict"
        html.element("div", [("class", verdictClass)], text: verdict(cell))
        if let output = cell.rawOutput {
            html.element("pre", [("class", "output")], text: truncated(output, to: outputLimit))
        }
        html.append(checks(cell))
        html.append(measures(cell))
        return html
    }

    /// The error and each constraint, failing ones with their message and observed value.
    static func checks(_ cell: ResultCell) -> HTML {
        var html = HTML()
        guard cell.error != nil || !cell.constraints.isEmpty || !cell.scores.isEmpty else { return html }
        html.element("ul", [("class", "checks")]) { list in
            if let error = cell.error {
                list.element("li", [("class", "failed error")], text: "error \(error.kind): \(error.message)")
            }
            for check in cell.constraints {
                var line = check.name
                if !check.passed {
                    line += ": " + (check.message ?? "failed")
                    if let observed = check.observed { line += " (observed \(observed.canonicalJSON))" }
                }
                list.element("li", [("class", check.passed ? "passed" : "failed"), ("data-check", check.name)], text: line)
            }
            for score in cell.scores {
                var line = "\(score.scorer) \(ReportFormatting.score(score.value))"
                if let detail = score.detail { line += " — \(Self.readable(detail))" }
                list.element("li", [("class", "score")], text: line)
            }
        }
        return html
    }

    /// A score's detail as a person reads it: a judge's rationale (or its answer) rather than the stored JSON.
    static func readable(_ detail: String) -> String {
        guard case .object(let members)? = try? JSONValue(parsing: detail) else { return detail }
        let judge = members["judge_model"].flatMap { if case .string(let id) = $0 { id } else { nil } }
        for key in ["rationale", "answer"] {
            if case .string(let text)? = members[key], !text.isEmpty {
                return (judge.map { "\($0): " } ?? "") + (key == "answer" ? "answered \(String(reflecting: text))" : text)
            }
        }
        return detail
    }

    /// TTFT / total latency, tokens in → out (* when estimated), cost, cache hit.
    static func measures(_ cell: ResultCell) -> HTML {
        var parts = ["TTFT \(ReportFormatting.ms(cell.ttftMs)) ms", "total \(ReportFormatting.ms(cell.totalMs)) ms"]
        if let usage = cell.usage {
            parts.append("\(usage.promptTokens) → \(usage.completionTokens) tok" + (usage.isEstimated ? "*" : ""))
        }
        if let cost = cell.costUSD { parts.append(ReportFormatting.usd(cost)) }
        if cell.cacheHit { parts.append("cache hit") }
        var html = HTML()
        html.element("div", [("class", "measure")], text: parts.joined(separator: " · "))
        return html
    }

    static func truncated(_ text: String, to limit: Int?) -> String {
        guard let limit, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
    }
}
