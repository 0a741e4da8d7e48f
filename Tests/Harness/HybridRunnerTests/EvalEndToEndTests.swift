import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
import HybridRunner
import HybridStore
import HybridTestSupport
import HybridTransport
import Testing
import HybridProjectTestSupport

@Suite(.serialized) struct EvalEndToEndTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func runHybrid(_ arguments: [String], killAfter: Duration? = nil) async throws -> Int32 {
        try await HybridCLI.run(arguments, in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), killAfter: killAfter).status
    }

    @Test func killingTheCLIAtRandomPointsAndResumingStoresExactlyTheFullSet() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine today.", delay: .milliseconds(15)) }
        defer { fake.stop() }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }

        let document = try EvalRunnerTests.config(models: ["fake-a": fake.baseURL, "fake-b": fake.baseURL])
        let configPath = dir.appendingPathComponent("config.json").path
        try document.encodedJSON().write(to: URL(fileURLWithPath: configPath))
        let datasetPath = dir.appendingPathComponent("cases.jsonl").path
        let lines = (1...40).map { #"{"id": "k\#($0)", "input": {"input": "Case \#($0): the weather is fine today."}}"# }
        try lines.joined(separator: "\n").write(toFile: datasetPath, atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("runs.sqlite").path
        let common = ["--config", configPath, "--db", db, "--concurrency", "4"]

        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var started = false
        for _ in 0..<4 {
            let delay = Duration.milliseconds(Int.random(in: 150...600, using: &generator))
            let args = started
                ? ["eval", "--resume", "kill-test"] + common
                : ["eval", "--feature", "summarize", "--dataset", datasetPath, "--run-id", "kill-test"] + common
            let status = try await runHybrid(args, killAfter: delay)
            if status == 0 { break }
            kills += 1
            let store = try SQLiteResultStore(path: db)
            started = try await store.run(id: "kill-test") != nil
        }
        let finalArgs = started
            ? ["eval", "--resume", "kill-test"] + common
            : ["eval", "--feature", "summarize", "--dataset", datasetPath, "--run-id", "kill-test"] + common
        #expect(try await runHybrid(finalArgs) == 0)

        let store = try SQLiteResultStore(path: db)
        let run = try #require(try await store.run(id: "kill-test"))
        #expect(run.status == .completed)
        let keys = try await store.completedKeys(run: "kill-test")
        let expected = Set((1...40).flatMap { i in
            ["concise@fake-a", "concise@fake-b", "bullet@fake-a", "bullet@fake-b"].map {
                ResultKey(runID: "kill-test", caseID: "k\(i)", armID: $0, repeatIndex: 0)
            }
        })
        #expect(keys == expected)
        #expect(try await store.resultCount(run: "kill-test") == expected.count)
        #expect(try await store.results(run: "kill-test").allSatisfy { $0.error == nil })
        // At least one kill must have landed mid-run for this test to mean anything.
        #expect(kills >= 1)
    }

    @Test func threeCasesThroughTheRealLocalModel() async throws {
        var document = try HybridConfigDocument.bundledDefaults().document
        // The eval now holds each sample to the feature's deadline (20 s); on a loaded machine the real model can
        // take longer, and this test is about its outputs, not about deadlines (EvalLimitsTests covers those).
        document.features["summarize"]!.deadlineMs = 300_000
        guard let installation = LocalModelRequirement.installed() else { return }
        let factory = ModelFactory(transport: CurlTransport.shared).withLocalLlama(.success(installation))
        let model = factory.model(id: "local-smollm2", config: document.models["local-smollm2"]!)
        let dataset = try Dataset.load(path: "datasets/summarize.jsonl")
        let plan = try EvalPlan(
            runID: "real", feature: "summarize", config: document, configHash: "bundled", dataset: dataset,
            models: ["local-smollm2"], variants: ["concise"], limit: 3)
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let summary = try await EvalRunner(
            store: store, models: ["local-smollm2": model],
            options: EvalOptions(concurrency: 2, scorers: [TokenF1Scorer(), RougeLScorer()])
        ).run(plan)
        #expect(summary.stored == 3 && summary.errors == 0)
        let results = try await store.results(run: "real")
        for result in results {
            #expect(!(result.rawOutput ?? "").isEmpty)
            #expect((result.usage?.completionTokens ?? 0) > 0 && result.usage?.isEstimated == false)
            let ttft = try #require(result.timings.ttftMs)
            #expect(ttft < result.timings.totalMs)
            #expect(result.scores.map(\.scorer).sorted() == ["rouge_l", "token_f1"])
            #expect(result.constraints.contains { $0.name == "max_sentences" })
            #expect(result.costUSD == 0)
        }
    }
}
