import Foundation
import HybridConfig
import HybridCore
import HybridRunner
import HybridStore
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// Re-scoring stored outputs: new checks and scores into a new run, and not one request to a model.
@Suite struct RescoreTests {
    static let reply = "The weather is fine today, with plenty of sun."

    @Test func aStricterMaxWordsTurnsPassesIntoFailuresWithoutARequest() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply(Self.reply) }
        defer { fake.stop() }
        let document = try EvalRunnerTests.config(models: ["fake-a": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let dataset = EvalRunnerTests.dataset()
        let plan = try EvalPlan(
            runID: "src", feature: "summarize", config: document, configHash: "h", dataset: dataset, variants: ["concise"])
        _ = try await EvalRunner(store: store, models: EvalRunnerTests.models(document), options: EvalOptions(scorers: [TokenF1Scorer()]))
            .run(plan, arguments: ["feature": "summarize"])
        let sent = fake.requestCount
        #expect(sent == 6)

        let rescorer = Rescorer(
            store: store,
            scorer: SampleScorer(schema: nil, constraints: OutputConstraints(maxWords: 3), scorers: [TokenF1Scorer()]),
            references: Dictionary(uniqueKeysWithValues: dataset.cases.compactMap { c in c.reference.map { (c.id, $0) } }))
        let summary = try await rescorer.rescore(sourceRunID: "src", newRunID: "strict", changes: ["maxWords 3"])
        #expect(fake.requestCount == sent, "re-scoring must not call the model")
        #expect(summary.stored == 6 && summary.passToFail == 6 && summary.failToPass == 0)

        let before = Dictionary(uniqueKeysWithValues: try await store.results(run: "src").map { ($0.key.caseID, $0) })
        let after = try await store.results(run: "strict")
        #expect(after.count == 6)
        for result in after {
            let old = try #require(before[result.key.caseID])
            #expect(result.constraints.map(\.name) == ["max_words"] && result.allConstraintsPassed == false)
            #expect(old.allConstraintsPassed == true)
            #expect(result.rawOutput == old.rawOutput && result.timings == old.timings && result.usage == old.usage)
            #expect(result.costUSD == old.costUSD && result.scores == old.scores)
        }
        let run = try #require(try await store.run(id: "strict"))
        #expect(run.status == .completed && run.datasetHash == dataset.contentHash)
        #expect(run.arguments.objectValue?["rescore"]?.objectValue?["sourceRun"]?.stringValue == "src")
        #expect(run.arguments.objectValue?["feature"]?.stringValue == "summarize", "the source's arguments are kept")
        await #expect(throws: RescoreError.self) {
            try await rescorer.rescore(sourceRunID: "missing", newRunID: "x", changes: [])
        }
    }

    /// The CLI end to end: `eval` (one arm answered by a loopback OpenAI-compatible server, one never sent),
    /// `rescore --constraints`, then `compare` lists the flipped cases; the server sees no request after the eval.
    @Test func cliRescoreThenCompareListsTheFlippedCases() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply(Self.reply) }
        defer { fake.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-rescore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let document = try EvalRunnerTests.config(
            models: ["fake-a": fake.baseURL, "keyed": fake.baseURL], apiKeyEnv: ["keyed": "HYBRID_RESCORE_TEST_UNSET_KEY"])
        try document.encodedJSON().write(to: directory.appendingPathComponent("config.json"))
        let lines = (1...12).map { #"{"id": "k\#($0)", "input": {"input": "Case \#($0): the weather is fine."}, "reference": {"expectedText": "The weather is fine."}}"# }
        try lines.joined(separator: "\n").write(to: directory.appendingPathComponent("cases.jsonl"), atomically: true, encoding: .utf8)
        try Data(#"{"maxWords": 3}"#.utf8).write(to: directory.appendingPathComponent("strict.json"))
        let common = ["--config", "config.json", "--db", "runs.sqlite"]

        let eval = try await HybridCLI.run(
            ["eval", "--feature", "summarize", "--dataset", "cases.jsonl", "--variants", "concise", "--run-id", "src"] + common,
            in: directory)
        #expect(eval.status == 0, "\(eval.output)")
        #expect(eval.output.contains("(0 errors, 12 skipped (unavailable)"), "\(eval.output)")
        #expect(eval.output.contains("done, 0 errors, skipped (unavailable) 12"), "the progress line: \(eval.output)")
        let sent = fake.requestCount
        #expect(sent == 12)

        let rescore = try await HybridCLI.run(
            ["rescore", "src", "--constraints", "strict.json", "--run-id", "strict"] + common, in: directory)
        #expect(rescore.status == 0, "\(rescore.output)")
        #expect(rescore.output.contains("12 pass→fail, 0 fail→pass"), "\(rescore.output)")

        let compare = try await HybridCLI.run(
            ["compare", "src", "strict", "--db", "runs.sqlite", "--out", "out"], in: directory)
        #expect(compare.status == 3, "12 pass→fail flips are a significant regression: \(compare.output)")
        #expect(compare.output.contains("flipped cases (src → strict): 12 pass→fail, 0 fail→pass"), "\(compare.output)")
        #expect(compare.output.contains("summarize concise@fake-a pass→fail: k1, k2, k3, k4, k5, k6, k7, k8, k9, k10 and 2 more"),
                "capped at 10 with a count of the rest: \(compare.output)")
        #expect(fake.requestCount == sent, "rescore and compare must not call a model")

        let markdown = try String(contentsOf: directory.appendingPathComponent("out/report.md"), encoding: .utf8)
        #expect(markdown.contains("**Flipped cases** (`src` → `strict`): 12 pass→fail, 0 fail→pass"))
        #expect(markdown.contains("- … and 2 more pass→fail"))
        #expect(markdown.contains("re-scored from `src` without model calls"))
        #expect(markdown.components(separatedBy: "not measured: HYBRID_RESCORE_TEST_UNSET_KEY not set").count == 2,
                "the never-sent arm appears exactly once")
        #expect(!markdown.contains("`concise@keyed` case"), "and never among the worst cases")
    }
}
