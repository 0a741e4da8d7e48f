import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridProviders
import HybridRunner
import HybridStore
import HybridCurl
import HybridTransport

/// `hybrid-bench runner [--cases 2000] [--concurrency 32]`: the whole eval path (render, send over libcurl,
/// decode, score every constraint and two text scorers, insert into SQLite) against a server in another process
/// that answers instantly, so the figures are the harness's own cost.
enum RunnerBenchmark {
    static func run(_ arguments: BenchmarkArguments) async throws {
        let cases = arguments.int("cases", default: 2_000)
        let concurrency = arguments.int("concurrency", default: 32)
        let server = try ChildServer.start()
        defer { server.kill() }

        var document = try HybridConfigDocument.bundledDefaults().document
        document.models = [
            "bench": ModelConfig(
                kind: .openAICompatible, baseURL: "http://127.0.0.1:\(server.port)/v1", model: "bench", tier: .privateCloud,
                pricing: ModelPricing(inputPerMillion: 0.5, outputPerMillion: 1.5), contextWindow: 8192,
                capabilities: .init(structuredOutput: false, streaming: false))
        ]
        document.features["summarize"]!.priority = ["bench"]
        let dataset = Dataset(
            path: "synthetic",
            cases: (0..<cases).map { i in
                EvalCase(id: "case-\(i)", input: ["input": "Synthetic case \(i): the council closed the bridge for repairs."],
                         reference: Reference(expectedText: "The council closed the bridge."), line: i + 1)
            },
            contentHash: "synthetic-\(cases)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-runner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // `--memory 1` isolates the harness from disk: the difference to a file run is the cost of durability.
        let store = arguments.int("memory", default: 0) == 1
            ? SQLiteResultStore(database: try HybridDatabase.inMemory())
            : try SQLiteResultStore(path: directory.appendingPathComponent("bench.sqlite").path)
        let factory = ModelFactory(transport: CurlTransport.shared, environment: { _ in nil })
        let plan = try EvalPlan(
            runID: "bench", feature: "summarize", config: document, configHash: "bench", dataset: dataset,
            variants: ["concise"])
        let runner = EvalRunner(
            store: store, models: ["bench": factory.model(id: "bench", config: document.models["bench"]!)],
            options: EvalOptions(concurrency: concurrency, perModelConcurrency: concurrency, scorers: [TokenF1Scorer(), RougeLScorer()]))

        let cpuBefore = ResourceUsage.cpuSeconds()
        let clock = ContinuousClock()
        let started = clock.now
        let summary = try await runner.run(plan)
        let seconds = (clock.now - started).seconds
        let cpu = ResourceUsage.cpuSeconds() - cpuBefore
        let stored = try await store.resultCount(run: "bench")
        let rate = Double(stored) / seconds
        let rss = Double(ResourceUsage.peakRSSBytes()) / 1_048_576
        print(String(
            format: "runner: %d samples in %.2f s = %.0f samples/s (target >= 2000), %.3f CPU ms/sample, peak RSS %.0f MB (target < 60), %d errors",
            stored, seconds, rate, cpu * 1000 / Double(max(stored, 1)), rss, summary.errors))
    }
}
