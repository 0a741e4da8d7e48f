import Foundation
import HybridReport
import HybridStore
import Testing

/// Stored pairwise verdicts become the report's pairwise section in every format, with the judge's self-preference
/// measured against a second judge of the same pair and its agreement with people's stored labels (#51).
@Suite("Pairwise judgements in reports")
struct PairwiseReportTests {
    static let baseline = "concise@local"
    static let arm = "concise@cloud"

    /// `armWins` cases (of 10) where `judge` preferred the arm, the rest the baseline; people preferred the arm in
    /// the first `peopleArm` cases when given.
    static func verdicts(judge: String, armWins: Int, people: Int? = nil) -> [PairwiseVerdictRecord] {
        (0..<10).map { index in
            PairwiseVerdictRecord(
                runID: "r", feature: "summarize", caseID: "k\(index)", armID: arm, baselineArmID: baseline, judge: judge,
                outcome: index < armWins ? .arm : .baseline, human: people.map { index < $0 ? .arm : .baseline },
                rawAnswers: ["A", "B"], judgeTokens: 10, judgeCostUSD: 0.001)
        }
    }

    @Test("a judge preferring the arm its own model served, where a second judge does not, is flagged and not trusted")
    func selfPreferenceAgainstASecondJudge() {
        let summaries = PairwiseSummary.all(from: Self.verdicts(judge: "cloud", armWins: 10) + Self.verdicts(judge: "other", armWins: 3))
        let own = summaries.first { $0.judge == "cloud" }!
        let fair = summaries.first { $0.judge == "other" }!
        #expect(own.selfPreference?.contains("self-preference") == true, "\(own.selfPreference ?? "nil")")
        #expect(own.reliable().0 == false)
        #expect(fair.selfPreference == nil, "the second judge served neither arm")
    }

    @Test("alone, a judge that served an arm is warned about; people's stored labels give its agreement")
    func aloneAndLabelled() {
        let lone = PairwiseSummary.all(from: Self.verdicts(judge: "local", armWins: 2, people: 2))[0]
        #expect(lone.selfPreference?.contains("no second judge") == true)
        #expect(lone.humanAgreement?.successes == 10 && lone.humanAgreement?.trials == 10)
        let outsider = PairwiseSummary.all(from: Self.verdicts(judge: "referee", armWins: 2, people: 2))[0]
        #expect(outsider.reliable().0, "agrees with people on 10 of 10 and served neither arm")
    }

    @Test("Markdown, HTML, JSON and JUnit all carry the pairwise section; an unlabelled judge is not decided on")
    func everyFormat() throws {
        var report = ReportBuilder().build(runID: "r", run: nil, results: [ResultRecord]())
        report.pairwise = PairwiseSummary.all(from: Self.verdicts(judge: "referee", armWins: 7))
        let markdown = MarkdownReportRenderer().render(report)
        #expect(markdown.contains("### Pairwise judgement"))
        #expect(markdown.contains("| concise@cloud vs concise@local | referee | 7 | 3 | 0 | 0 |"), "\(markdown)")
        #expect(markdown.contains("not to be decided on, its agreement with people is unmeasured"))
        let html = HTMLReportRenderer().render(report)
        #expect(html.contains("<h2>Pairwise judgement</h2>") && html.contains("data-pairwise-trusted=\"false\""))
        let junit = JUnitReportRenderer().render(report)
        #expect(junit.contains("<testsuite name=\"judge.pairwise\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">"), "\(junit)")
        let decoded = try JSONDecoder().decode(RunReport.self, from: JSONEncoder().encode(report))
        #expect(decoded.pairwise?.first?.winsB == 7)

        report.pairwise = PairwiseSummary.all(from: Self.verdicts(judge: "referee", armWins: 7, people: 2))
        let measured = JUnitReportRenderer().render(report)
        #expect(measured.contains("type=\"pairwise_judge\""), "agreement measured and short (5 of 10): a failure")
    }
}
