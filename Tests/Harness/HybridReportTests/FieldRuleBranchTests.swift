import Foundation
import HybridReport
import HybridStore
import Testing

/// The field report's input-rule rows: one per rule the events name plus the own route, with events, installs,
/// adherence, latency and cost, and a sentence saying they describe, not compare.
@Suite struct FieldRuleBranchTests {
    /// 200 events on 100 installs: every third event's input is long and takes `long-inputs` to `cloud-large`,
    /// which passes its checks every time; the own route passes 60 %.
    static func events() -> [FieldEventRecord] {
        FieldReportBuilderTests.events(perArm: ["concise": 100, "brief": 100]).enumerated().map { index, event in
            var e = event
            e.installID = "i\(index % 100)"
            guard index % 3 == 0 else {
                e.failedChecks = index % 5 < 3 ? [] : ["max_words"]
                return e
            }
            (e.inputRule, e.servedBy, e.failedChecks, e.latencyMs, e.costUSD) = ("long-inputs", "cloud-large", [], 900, 0.002)
            return e
        }
    }

    @Test func oneRowPerRuleAndTheOwnRouteWithInstallsAdherenceLatencyAndCost() throws {
        let builder = FieldReportBuilder(percentages: ["concise": 50, "brief": 50], control: "concise")
        let report = builder.build(runID: "field-summarize-v4", run: nil, events: Self.events())
        let branches = try #require(report.field?.ruleBranches)
        #expect(branches.map(\.name) == ["long-inputs", "own route"])
        let rule = branches[0].figures, own = branches[1].figures
        #expect((rule.events, own.events) == (67, 133))
        #expect(rule.installs == 67 && own.installs == 100)
        #expect(branches[0].arms == ["brief", "concise"])
        #expect(rule.adherence?.rate == 1 && rule.servedBy == ["cloud-large": 67])
        #expect(rule.latency?.p50 == 900 && abs(rule.costPer1000 - 2) < 1e-9)
        #expect(abs((own.adherence?.rate ?? 0) - 0.6) < 0.05)

        let markdown = MarkdownReportRenderer().render(report)
        #expect(markdown.contains("#### Input rules (descriptive)"))
        #expect(markdown.contains("are not compared"))
        #expect(markdown.contains("| `long-inputs` | `brief`, `concise` | 67 | 67 | cloud-large 67 | 100.0 % "))
        #expect(markdown.contains("| own route | `brief`, `concise` | 133 | 100 | "))
        let html = HTMLReportRenderer().render(report)
        #expect(html.contains("Input rules (descriptive)") && html.contains("<code>long-inputs</code>"))
        let json = String(decoding: try report.jsonData(includeCases: false), as: UTF8.self)
        #expect(json.contains("\"ruleBranches\"") && json.contains("\"rule\" : \"long-inputs\""))
        // Nothing is tested between branches: every comparison is still arm against control.
        #expect(report.field?.comparisons.allSatisfy { $0.arm == "brief" && $0.control == "concise" } == true)
    }

    @Test func aRunWhoseEventsNameNoRuleHasNoSection() throws {
        let builder = FieldReportBuilder(percentages: ["concise": 50, "brief": 50], control: "concise")
        let report = builder.build(runID: "field-summarize-v4", run: nil, events: FieldReportBuilderTests.events(perArm: ["concise": 20, "brief": 20]))
        #expect(report.field?.ruleBranches == nil)
        #expect(!MarkdownReportRenderer().render(report).contains("Input rules"))
    }
}
