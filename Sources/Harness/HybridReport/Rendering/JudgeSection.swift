import Foundation

/// The judge's part of every report format: the rubric judge's measured agreement with people and, per pair of arms
/// judged pairwise, the wins, ties and flips with how far that judge can be believed. One source for Markdown, HTML
/// (reports and the viewer) and JUnit, so no format says less than another.
struct JudgeSection {
    var reliability: JudgeReliabilitySummary?
    var pairwise: [PairwiseSummary]

    init(_ report: RunReport) {
        reliability = report.judgeReliability
        pairwise = report.pairwise ?? []
    }

    var isEmpty: Bool { reliability == nil && pairwise.isEmpty }

    static let header = [
        "arm (B) vs baseline (A)", "judge", "B preferred", "A preferred", "tie", "flipped with order",
        "position-swap inconsistency", "agreement with people", "sign test",
    ]

    /// One row per summary, in `header`'s order.
    func row(_ summary: PairwiseSummary) -> [String] {
        [
            "\(summary.armB) vs \(summary.armA)", summary.judge, "\(summary.winsB)", "\(summary.winsA)", "\(summary.ties)",
            "\(summary.inconsistent)", Self.percent(summary.positionSwap), Self.percent(summary.humanAgreement),
            summary.signTest.map { $0.discordantPairs > 0 ? String(format: "p = %.3g", $0.pValue) : "no decided case" } ?? "—",
        ]
    }

    /// Whether the pair's judge may be decided on, and why, as one sentence.
    func verdict(_ summary: PairwiseSummary) -> (trusted: Bool, text: String) {
        var (trusted, why) = summary.reliable()
        if let selfPreference = summary.selfPreference, !why.contains(selfPreference) { why += "; \(selfPreference)" }
        let cost = String(format: "judge usage %d tokens, $%.6f, not counted in either arm", summary.judgeTokens, summary.judgeCostUSD)
        return trusted
            ? (true, "\(summary.armB) vs \(summary.armA): the judge \(why) (\(cost))")
            : (false, "\(summary.armB) vs \(summary.armA): not to be decided on, \(why) (\(cost))")
    }

    static func percent(_ interval: WilsonInterval?) -> String {
        interval.map { String(format: "%.0f %% [%.0f %%, %.0f %%] of %d", $0.proportion * 100, $0.lower * 100, $0.upper * 100, $0.trials) }
            ?? "unmeasured"
    }

    func markdown() -> String {
        var out = reliability.map { "**Judge**: \($0.sentence).\n\n" } ?? ""
        guard !pairwise.isEmpty else { return out }
        out += "### Pairwise judgement\n\nEach case asked in both orders; a case whose orders disagree is counted as flipped, never as a win.\n\n"
        out += "| " + Self.header.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: Self.header.count) + "\n"
        for summary in pairwise { out += "| " + row(summary).joined(separator: " | ") + " |\n" }
        out += "\n"
        for summary in pairwise { out += "- " + verdict(summary).text + "\n" }
        return out + "\n"
    }

    func html(escape: (String) -> String) -> String {
        var out = reliability.map { judge in
            "<p class=\"\(judge.reliable ? "meta" : "fail")\" data-judge-reliable=\"\(judge.reliable)\"><b>Judge</b>: \(escape(judge.sentence)).</p>\n"
        } ?? ""
        guard !pairwise.isEmpty else { return out }
        out += "<section class=\"pairwise\"><h2>Pairwise judgement</h2>\n<p class=\"meta\">Each case asked in both orders; a case whose orders disagree is counted as flipped, never as a win.</p>\n"
        out += "<table><tr>" + Self.header.map { "<th>\(escape($0))</th>" }.joined() + "</tr>\n"
        for summary in pairwise { out += "<tr>" + row(summary).map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }
        out += "</table>\n"
        for summary in pairwise {
            let (trusted, text) = verdict(summary)
            out += "<p class=\"\(trusted ? "meta" : "fail")\" data-pairwise-trusted=\"\(trusted)\">\(escape(text)).</p>\n"
        }
        return out + "</section>\n"
    }
}
