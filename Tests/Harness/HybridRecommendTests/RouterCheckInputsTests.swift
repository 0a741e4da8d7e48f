import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridRouter
import HybridStore
import Testing

/// `simulate --check-router` replays each case's real inputs, so the router's context-window rule meets the prompt
/// the eval sent: a case too long for the small model is skipped there, as the eval stored it, and served by the
/// big one; without the inputs the report says those rules were not exercised.
@Suite struct RouterCheckInputsTests {
    static let long = String(repeating: "The council met again and talked about the tram line at length. ", count: 40)

    /// c00 short, c01 too long for `small` (a 300-token window): the eval stored that as context_window_exceeded.
    static func stored() async throws -> (SQLiteResultStore, HybridConfigDocument) {
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        try await store.createRun(RunRecord(
            id: "run", features: ["summarize"], datasetPath: "memory.jsonl", datasetHash: "h", plannedCount: 4, seed: 1))
        var records: [ResultRecord] = []
        for (index, model) in [(0, "small"), (0, "big"), (1, "small"), (1, "big")] {
            let key = ResultKey(runID: "run", caseID: "c0\(index)", armID: "concise@\(model)", repeatIndex: 0)
            if index == 1 && model == "small" {
                records.append(ResultRecord(
                    key: key, feature: "summarize", promptVariant: "concise", modelID: model, tier: .onDevice,
                    renderedPromptHash: "p", rawOutput: nil, usage: nil, timings: ResultTimings(totalMs: 0),
                    error: ResultError(kind: "context_window_exceeded", message: "small: the prompt needs more than 300 tokens")))
            } else {
                records.append(ResultRecord(
                    key: key, feature: "summarize", promptVariant: "concise", modelID: model, tier: .onDevice,
                    renderedPromptHash: "p", rawOutput: "A short summary.", usage: TokenUsage(promptTokens: 10, completionTokens: 4),
                    timings: ResultTimings(totalMs: 100), costUSD: 0,
                    constraints: [ConstraintOutcome(name: "max_words", passed: true)]))
            }
        }
        _ = try await store.insertResults(records)
        var document = try StoredRunFixture.config(
            models: [("small", .onDevice, 0), ("big", .onDevice, 0)], priority: ["small", "big"])
        document.models["small"]?.contextWindow = 300
        document.models["small"]?.maxOutputTokens = 16
        document.features["summarize"]?.options = FeatureGenerationOptions(maxOutputTokens: 16)
        return (store, document)
    }

    @Test func theRealInputsMeetTheContextWindowRule() async throws {
        let (store, document) = try await Self.stored()
        let inputs = ["c00": ["input": "The tram opens on Monday."], "c01": ["input": Self.long]]
        let report = try await RouterCheck(document: document, inputs: inputs).run(store: store, run: "run")
        #expect(report.inputsReplayed && report.allAgree, "\(report.render())")
        let long = try #require(report.cases.first { $0.key.caseID == "c01" })
        #expect(long.router.servedBy == "big")
        let first = try #require(long.attempts.first)
        guard case .contextWindowTooSmall? = first.outcome.skipReason else {
            Issue.record("the window rule was not exercised: \(long.attempts)")
            return
        }
        #expect(first.modelID == "small")
    }

    @Test func withoutTheInputsTheReportSaysTheRulesWereNotExercised() async throws {
        let (store, document) = try await Self.stored()
        let report = try await RouterCheck(document: document).run(store: store, run: "run")
        #expect(!report.inputsReplayed)
        #expect(report.render().contains("context-window, truncation and minimum-input rules were not exercised"))
    }
}
