import HybridReport
import HybridStore

/// Two runs, baseline → candidate: per arm present in both, the cases that flipped pass→fail (first) and
/// fail→pass, each with both runs' outputs side by side. The flips come from HybridReport's `CaseFlips`, the same
/// computation `hybrid compare` writes into its reports.
struct ComparePage: Sendable {
    /// Flipped cases listed per arm and direction.
    static let listLimit = 50

    var baseline: RunRecord
    var candidate: RunRecord
    var flips: CaseFlips

    static func load(_ query: QueryParameters, catalog: ViewCatalog) async throws -> ComparePage {
        guard query["baseline"] != nil, query["candidate"] != nil else {
            throw ViewError.badRequest("which runs? add ?baseline=RUN_A&candidate=RUN_B (or use the form on the runs page)")
        }
        let baseline = try await catalog.run(query["baseline"])
        let candidate = try await catalog.run(query["candidate"])
        let flips = try await catalog.flips(from: baseline.id, to: candidate.id, limit: listLimit)
        return ComparePage(baseline: baseline, candidate: candidate, flips: flips)
    }

    func render() -> String {
        var body = HTML()
        body.element("h1") { h1 in
            h1.text("Flipped cases: ")
            h1.element("code", text: baseline.id)
            h1.text(" → ")
            h1.element("code", text: candidate.id)
        }
        body.element("p", [("class", "meta")]) { p in
            p.text("\(flips.passToFailCount) pass→fail, \(flips.failToPassCount) fail→pass over \(flips.arms.count) arms in both runs. "
                + "Pass: every constraint held; an error fails; arms never sent and results without checks do not count.")
        }
        if flips.arms.isEmpty {
            body.element("p", text: "The two runs share no arm with checked results (same feature and arm id), so nothing can flip.")
        }
        for arm in flips.arms {
            body.append(section(arm))
        }
        return PageLayout.document(
            title: "\(baseline.id) → \(candidate.id)",
            breadcrumbs: [PageLayout.home, ("compare \(baseline.id) → \(candidate.id)", nil)], body: body)
    }

    private func section(_ arm: ArmFlips) -> HTML {
        var html = HTML()
        html.element("section", [("class", "arm-flips"), ("data-arm", arm.armID)]) { section in
            section.element("h2") { h2 in
                h2.text("\(arm.feature) · ")
                h2.element("code", text: arm.armID)
            }
            section.element("p", [("class", "meta")], text: "\(arm.pairedCount) cases checked in both runs: "
                + "\(arm.passToFailCount) pass→fail, \(arm.failToPassCount) fail→pass")
            section.append(list("pass → fail", arm.passToFail, omitted: arm.omittedPassToFail, className: "pass-to-fail"))
            section.append(list("fail → pass", arm.failToPass, omitted: arm.omittedFailToPass, className: "fail-to-pass"))
        }
        return html
    }

    private func list(_ title: String, _ cases: [FlippedCase], omitted: Int, className: String) -> HTML {
        var html = HTML()
        guard !cases.isEmpty else { return html }
        html.element("h3", text: "\(title) (\(cases.count + omitted))")
        for flipped in cases {
            html.element("div", [("class", "flip " + className), ("data-case", flipped.caseID)]) { div in
                div.element("h4") { h4 in
                    h4.element("code", text: flipped.caseID)
                    if flipped.repeatIndex > 0 { h4.text(" #\(flipped.repeatIndex)") }
                }
                div.element("div", [("class", "side-by-side")]) { grid in
                    grid.append(outcome(flipped.baseline, run: baseline.id))
                    grid.append(outcome(flipped.candidate, run: candidate.id))
                }
                let diff = WordDiff(flipped.baseline.output ?? "", flipped.candidate.output ?? "")
                div.element("details") { details in
                    details.element("summary", text: "word diff (\(diff.deletedCount) removed, \(diff.insertedCount) added)")
                    details.element("p", [("class", "diff")]) { $0.append(diff.html) }
                }
            }
        }
        if omitted > 0 {
            html.element("p", [("class", "meta")], text: "… and \(omitted) more")
        }
        return html
    }

    private func outcome(_ outcome: CaseOutcome, run: String) -> HTML {
        var html = HTML()
        let status = outcome.passed.map { $0 ? "is-passed" : "is-failed" } ?? "is-unchecked"
        html.element("div", [("class", "cell " + status)]) { div in
            div.element("h5") { h5 in
                h5.element("code", text: run)
                h5.text(outcome.passed.map { $0 ? " — pass" : " — fail" } ?? "")
            }
            if let output = outcome.output { div.element("pre", [("class", "output")], text: output) }
            div.element("ul", [("class", "checks")]) { list in
                if let error = outcome.error {
                    list.element("li", [("class", "failed error")], text: "error \(error.kind): \(error.message)")
                }
                for check in outcome.failedChecks {
                    var line = "\(check.name): \(check.message ?? "failed")"
                    if let observed = check.observed { line += " (observed \(observed))" }
                    list.element("li", [("class", "failed"), ("data-check", check.name)], text: line)
                }
                for (scorer, value) in outcome.scores.sorted(by: { $0.key < $1.key }) {
                    list.element("li", [("class", "score")], text: "\(scorer) \(ReportFormatting.score(value))")
                }
            }
        }
        return html
    }
}
