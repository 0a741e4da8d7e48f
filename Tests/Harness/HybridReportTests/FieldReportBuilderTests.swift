import Foundation
import HybridReport
import HybridStore
import Testing

@Suite struct FieldReportBuilderTests {
    /// `perArm` installs per arm, one event each; `brief` passes its checks 90 % of the time, `concise` 60 %.
    static func events(perArm: [String: Int]) -> [FieldEventRecord] {
        var out: [FieldEventRecord] = []
        for (arm, count) in perArm.sorted(by: { $0.key < $1.key }) {
            for index in 0..<count {
                let passRate = arm == "brief" ? 9 : 6
                out.append(
                    FieldEventRecord(
                        eventID: "\(arm)-\(index)", occurredAt: Date(timeIntervalSince1970: 0), installID: "\(arm)-i\(index)",
                        feature: "summarize", configVersion: 4, rolloutArm: arm, bucket: index, variant: arm,
                        servedBy: "cloud", servedTier: "third-party", outcome: "served", errorKind: nil, attemptCount: 1,
                        fellBack: false, ttftMs: nil, latencyMs: Double(100 + index % 40), inputTokens: 10, outputTokens: 5,
                        tokensEstimated: false, costUSD: 0.0001, checksTotal: 1,
                        failedChecks: index % 10 < passRate ? [] : ["max_words"], cacheHit: false))
            }
        }
        return out
    }

    @Test func comparesArmsAfterAPassingSplitCheck() throws {
        let builder = FieldReportBuilder(percentages: ["concise": 50, "brief": 50], control: "concise")
        let report = builder.build(runID: "field-summarize-v4", run: nil, events: Self.events(perArm: ["concise": 500, "brief": 510]))
        let field = try #require(report.field)
        #expect(field.effectsReportable)
        #expect(field.arm("brief")?.installs == 510)
        #expect(abs((field.arm("brief")?.costPer1000 ?? 0) - 0.1) < 1e-9)
        let adherence = try #require(field.comparisons.first { $0.metric == "adherence" })
        #expect(abs(adherence.difference - 0.3) < 0.01)
        #expect(adherence.verdict == "better")
        #expect(field.comparisons.first { $0.metric == "errorRate" }?.verdict == "no detectable difference")
        #expect(field.comparisons.first { $0.metric == "latencyP50Ms" }?.verdict == "descriptive")
        // The per-(arm, model) rows come from the offline report model.
        #expect(report.features.first?.arms.map(\.armID) == ["brief/brief@cloud", "concise/concise@cloud"])
        #expect(MarkdownReportRenderer().render(report).contains("Sample ratio OK"))
    }

    @Test("hedged events give the arm its hedge rate, wins by model and extra cost per 1,000; unhedged arms have none")
    func hedgeLines() throws {
        var events = Self.events(perArm: ["concise": 100, "brief": 100])
        for index in events.indices where events[index].rolloutArm == "brief" && index % 10 == 0 {
            events[index].hedged = true
            events[index].costUSD = 0.0011  // the raced cloud call on top of the usual $0.0001
            if index % 20 == 0 { events[index].servedBy = "device" }
        }
        let builder = FieldReportBuilder(percentages: ["concise": 50, "brief": 50], control: "concise")
        let report = builder.build(runID: "field-summarize-v4", run: nil, events: events)
        let field = try #require(report.field)
        #expect(field.arm("concise")?.hedge == nil)
        let hedge = try #require(field.arm("brief")?.hedge)
        #expect(hedge.hedged == 10 && hedge.events == 100 && abs(hedge.rate - 0.1) < 1e-12)
        #expect(hedge.winsByModel == ["cloud": 5, "device": 5])
        // 10 requests cost $0.001 more than the unhedged mean: $0.01 over 100 requests, $0.1 per 1,000.
        #expect(abs(hedge.extraCostPer1000 - 0.1) < 1e-9)
        let markdown = MarkdownReportRenderer().render(report)
        #expect(markdown.contains("Hedged requests in `brief`: 10.0 % (10 of 100); served by cloud 5, device 5; extra cost per 1,000 requests $0.1"))
    }

    @Test func aBrokenSplitBlocksEveryClaim() throws {
        let builder = FieldReportBuilder(percentages: ["concise": 50, "brief": 50], control: "concise")
        let field = builder.analysis(feature: "summarize", configVersion: 4, events: Self.events(perArm: ["concise": 500, "brief": 400]))
        #expect(field.sampleRatio?.mismatch == true)
        #expect(!field.effectsReportable)
        #expect(field.comparisons.allSatisfy { $0.verdict.hasPrefix("not reported") })
    }

    @Test func offlineReportJSONHasNoFieldKey() throws {
        let report = RunReport(
            runID: "r", run: nil,
            settings: ReportSettings(
                confidenceLevel: 0.95, alpha: 0.05, power: 0.8, bootstrapResamples: 10, bootstrapSeed: "0",
                bootstrapMaximumResampledCount: 2),
            features: [])
        let json = String(decoding: try report.jsonData(includeCases: false), as: UTF8.self)
        #expect(!json.contains("\"field\""))
    }
}
