import Foundation
import HybridReport
import HybridStore
import Testing

/// Queueing in the report (issue #10): where the server reported its own timings (llama.cpp's `prompt_ms` and
/// `predicted_ms`, stored per result), each arm shows the client's total minus the server's time; reports of runs
/// without server timings stay exactly as they were.
@Suite("Queueing in reports")
struct QueueingReportTests {
    typealias F = ReportFixtures

    /// `count` results of `arm`; the first `timed` carry server timings of 100 ms + 200 ms against totals 300 + 100·i.
    private func results(arm: String, count: Int, timed: Int) -> [ResultRecord] {
        (0..<count).map { i in
            var result = F.result(caseID: "c\(i)", arm: arm, totalMs: 300 + 100 * Double(i))
            if i < timed {
                result.timings.serverPromptMs = 100
                result.timings.serverGenerationMs = 200
            }
            return result
        }
    }

    @Test("each arm shows queueing percentiles over the results whose server reported timings")
    func queueingPerArm() throws {
        let report = ReportBuilder().build(
            runID: "r", run: nil, results: results(arm: "v@local", count: 11, timed: 11) + results(arm: "v@cloud", count: 4, timed: 0))
        let feature = try #require(report.feature("f"))
        let localArm = try #require(feature.arm("v@local"))
        let local = try #require(localArm.latency.queueingMs)
        #expect(local.count == 11)
        #expect(local.min == 0 && local.p50 == 500 && local.max == 1_000)
        #expect(feature.arm("v@cloud")?.latency.queueingMs == nil)

        let json = String(decoding: try report.jsonData(), as: UTF8.self)
        #expect(json.components(separatedBy: "\"queueingMs\"").count - 1 == 1)
        let markdown = MarkdownReportRenderer().render(report)
        #expect(markdown.contains("queueing ms p50 / p95 / p99 (n)"))
        #expect(markdown.contains("| 500 / 950 / 990 (11) |"))
        let html = HTMLReportRenderer().render(report)
        #expect(html.contains("queueing ms p50 / p95 / p99 (n)"))
    }

    @Test("without server timings the report has no queueing figure or column")
    func unchangedWithoutServerTimings() throws {
        let report = ReportBuilder().build(runID: "r", run: nil, results: results(arm: "v@cloud", count: 5, timed: 0))
        #expect(!String(decoding: try report.jsonData(), as: UTF8.self).contains("queueing"))
        #expect(!MarkdownReportRenderer().render(report).contains("queueing"))
        #expect(!HTMLReportRenderer().render(report).contains("queueing"))
    }
}
