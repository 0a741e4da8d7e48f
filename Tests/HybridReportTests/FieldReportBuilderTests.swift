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
