import Foundation
import HybridCore
import HybridCurl
import HybridStore
import HybridTransport
import HybridView

/// `hybrid-bench view [--results N] [--arms A] [--requests R]`: `hybrid view`'s cases × arms grid over a synthetic
/// run (default 100,000 results = 5 arms × 20,000 cases, outputs of about 60 words). The viewer runs in process on
/// a read-only opening of the file, on 127.0.0.1 port 0; requests go through `CurlTransport` over loopback, so each
/// figure is a whole HTTP round trip (query, render, transfer). Target: a grid page answers in < 200 ms.
enum ViewBenchmark {
    static func run(_ arguments: BenchmarkArguments) async throws {
        let total = arguments.int("results", default: 100_000)
        let armCount = arguments.int("arms", default: 5)
        let requests = arguments.int("requests", default: 20)
        let cases = max(1, total / armCount)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bench.sqlite").path
        try await fill(path: path, arms: armCount, cases: cases)
        print("view: filled \(armCount * cases) results (\(cases) cases × \(armCount) arms; not timed)")

        let server = ViewServer(store: SQLiteResultStore(database: try HybridDatabase.openReadOnly(path: path)))
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        let serving = Task { try await server.run(port: 0) { continuation.yield($0) } }
        defer { serving.cancel() }
        var iterator = urls.makeAsyncIterator()
        guard let base = await iterator.next() else { throw BenchmarkFailure("the viewer did not start") }

        let transport = CurlTransport()
        let lastPage = (cases + 49) / 50
        let target = "(target < 200 ms)"
        let scan = "(a filter reads every result once; no target)"
        let pages: [(String, String, String)] = [
            ("grid page 1", "grid?run=bench", target),
            ("grid page \(lastPage / 2) (offset)", "grid?run=bench&page=\(lastPage / 2)", target),
            ("grid failing only", "grid?run=bench&failing=1", scan),
            ("grid arms disagree", "grid?run=bench&disagree=1", scan),
            ("grid constraint failing", "grid?run=bench&constraint=max_words", scan),
            ("grid text search", "grid?run=bench&q=harbour+0042", scan),
            ("diff", "diff?run=bench&case=case-00042&a=v0%40model-0&b=v1%40model-1", target),
        ]
        let first = try await time(transport, base.absoluteString + pages[0].1)
        print("view: first grid request (reads the run's layout once) \(format(first.milliseconds)) ms, \(first.bytes / 1024) KB")
        for (name, path, note) in pages {
            var samples: [Double] = []
            var bytes = 0
            for _ in 0..<requests {
                let sample = try await time(transport, base.absoluteString + path)
                samples.append(sample.milliseconds)
                bytes = sample.bytes
            }
            samples.sort()
            let p50 = samples[samples.count / 2]
            let p95 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.95))]
            print("view: \(name): p50 \(format(p50)) ms, p95 \(format(p95)) ms, max \(format(samples.last ?? 0)) ms, "
                + "\(bytes / 1024) KB \(note)")
        }
    }

    private struct Sample {
        var milliseconds: Double
        var bytes: Int
    }

    private static func time(_ transport: CurlTransport, _ url: String) async throws -> Sample {
        let start = ContinuousClock.now
        let (response, body) = try await transport.send(HTTPRequest(url: url))
        let elapsed = ContinuousClock.now - start
        guard response.status == 200 else {
            throw BenchmarkFailure("GET \(url) answered \(response.status): \(String(decoding: body.prefix(300), as: UTF8.self))")
        }
        return Sample(milliseconds: Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000, bytes: body.count)
    }

    private static func format(_ milliseconds: Double) -> String { String(format: "%.1f", milliseconds) }

    /// A run whose outputs read like summaries (about 60 words), one word-limit check and one score per result.
    private static func fill(path: String, arms: Int, cases: Int) async throws {
        let store = try SQLiteResultStore(path: path)
        try await store.createRun(RunRecord(
            id: "bench", features: ["summarize"], datasetPath: "synthetic", datasetHash: "none", plannedCount: arms * cases, seed: 1))
        let words = ["the", "harbour", "council", "bridge", "closed", "from", "march", "repairs", "cyclists", "may", "cross", "year"]
        var batch: [ResultRecord] = []
        for index in 0..<cases {
            let caseID = String(format: "case-%05d", index)
            for arm in 0..<arms {
                let length = 40 + (index * 7 + arm * 13) % 40
                let text = (0..<length).map { words[($0 * (arm + 3) + index) % words.count] }.joined(separator: " ")
                    + " harbour \(String(format: "%04d", index % 10_000))."
                let passed = length <= 60 + arm * 4
                batch.append(ResultRecord(
                    key: ResultKey(runID: "bench", caseID: caseID, armID: "v\(arm)@model-\(arm)", repeatIndex: 0),
                    feature: "summarize", promptVariant: "v\(arm)", modelID: "model-\(arm)", tier: .thirdParty,
                    renderedPromptHash: "h", renderedPrompt: "Summarise in one sentence: case \(index) " + text.prefix(200),
                    rawOutput: text, usage: TokenUsage(promptTokens: 120, completionTokens: length),
                    timings: ResultTimings(ttftMs: 80, totalMs: 300 + Double(length) * 5), costUSD: 0.0001 * Double(arm),
                    constraints: [ConstraintOutcome(name: "max_words", passed: passed, observed: .int(length), message: passed ? nil : "\(length) words")],
                    scores: [QualityScore(scorer: "rouge_l", value: Double(length % 10) / 10)]))
            }
            if batch.count >= 5_000 {
                try await store.insertResults(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try await store.insertResults(batch) }
    }
}

/// A benchmark that could not measure what it set out to (the server failed to start or answered an error).
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
