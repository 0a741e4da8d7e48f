import Foundation
import HybridCore
import HybridReport
import HybridStore
import HybridTestSupport
import HybridProjectTestSupport

/// `hybrid-bench report [--results N] [--arms A] [--db PATH]`: report generation over a synthetic stored run
/// (default 1,000,000 results = 5 arms × 200,000 cases). Only the report (stream, aggregate, compare, render
/// Markdown / HTML / JSON) is timed; filling the SQLite file is not. Targets: < 2 s and < 150 MB peak RSS, each with
/// an OK / MISSES verdict. Beside it, SQLite's own aggregate over the same file (the `sqlite3` shell, one GROUP BY
/// query) is printed as the floor, and the CPU time (getrusage, all threads), which load on a shared machine
/// inflates less than wall time.
enum ReportBenchmark {
    static func run(_ arguments: BenchmarkArguments) async throws {
        let total = arguments.int("results", default: 1_000_000)
        let armCount = arguments.int("arms", default: 5)
        let casesPerArm = max(1, total / armCount)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // `--db PATH` keeps the filled file (and reuses it when present), so repeated runs skip the fill and the
        // peak RSS is the report's own.
        let kept = arguments.string("db")
        let path = kept ?? directory.appendingPathComponent("bench.sqlite").path
        if let kept, FileManager.default.fileExists(atPath: kept) {
            print("report: reusing \(kept) (--results and --arms ignored)")
        } else {
            let fillStart = ContinuousClock.now
            try await fill(path: path, arms: armCount, casesPerArm: casesPerArm)
            print("report: filled \(armCount * casesPerArm) results in \(seconds(since: fillStart)) s (not timed below)")
        }
        let rssBefore = ResourceUsage.peakRSSBytes()

        let floor = await printFloor(path: path)
        // A fresh store, so no page cache of the writer's connection is counted as report work.
        let store = try SQLiteResultStore(path: path)
        let cpuStart = ResourceUsage.cpuSeconds()
        let start = ContinuousClock.now
        let report = try await ReportBuilder().build(store: store, runID: "bench")
        let built = seconds(since: start)
        let markdown = MarkdownReportRenderer().render(report)
        let html = HTMLReportRenderer().render(report)
        let json = try report.jsonData(includeCases: false)
        let elapsed = Self.elapsed(since: start)
        let cpu = ResourceUsage.cpuSeconds() - cpuStart
        // Read before the scale figures below, which stream whole rows and would raise the peak themselves.
        let peak = ResourceUsage.peakRSSBytes()
        print("report: \(report.resultCount) results, \(report.features.first?.arms.count ?? 0) arms, "
            + "\(report.features.flatMap(\.comparisons).count) comparisons")
        print("report: build \(built) s, build + render (md \(markdown.utf8.count / 1024) KB, html \(html.utf8.count / 1024) KB, "
            + "json \(json.count / 1024) KB) " + String(format: "%.2f s, cpu (user + sys, all threads) %.2f s", elapsed, cpu)
            + (floor.map { String(format: ", floor %.2f s", $0) } ?? "")
            + " (\(elapsed < 2 ? "OK" : "MISSES") target < 2 s; load average \(ResourceUsage.loadAverage()))")
        let peakMB = peak / 1_048_576
        print("report: peak RSS \(peakMB) MB (before the report: \(rssBefore / 1_048_576) MB; "
            + "\(peakMB < 150 ? "OK" : "MISSES") target < 150 MB)")

        try await printReadShares(path: path)
        let streamStart = ContinuousClock.now
        var streamed = 0
        try await SQLiteResultStore(path: path).forEachResult(run: "bench", batchSize: 2_000) { _ in streamed += 1 }
        print("report: streaming \(streamed) whole stored results (row decoding, not used by the report) \(seconds(since: streamStart)) s")
    }

    /// For scale: where the read's time goes. SQLite stepping the measures statement alone (`result_measures`, one
    /// packed row per result; one reader, no column read in Swift); the measures as the report reads them (pages of columns, two readers); the same rows built
    /// into one ``ResultMeasures`` each (what `compare` and `recommend` read); and whole rows (what it read before v3).
    private static func printReadShares(path: String) async throws {
        let stepStart = ContinuousClock.now
        let stepped = try await SQLiteResultStore(path: path).stepMeasuresStatements(run: "bench")
        print("report: SQLite stepping the measures statements alone (\(stepped) rows, one reader) \(seconds(since: stepStart)) s")
        let columnsStart = ContinuousClock.now
        var paged = 0
        try await SQLiteResultStore(path: path).forEachMeasureColumns(run: "bench", batchSize: 4_000) { paged += $0.count }
        print("report: streaming \(paged) results' measure columns alone \(seconds(since: columnsStart)) s")
        let measuresStart = ContinuousClock.now
        var measured = 0
        try await SQLiteResultStore(path: path).forEachMeasures(run: "bench", batchSize: 2_000) { _ in measured += 1 }
        print("report: streaming \(measured) results' measures as values \(seconds(since: measuresStart)) s")
    }

    /// The floor: SQLite alone aggregating the same file the way a report must at least (count, mean latency,
    /// constraint passes and the first score, per arm), with the stock `sqlite3` shell, once with the score parsed
    /// from JSON (schema v2) and once from the `v3` side table.
    /// Returns the side-table query's time (the floor for the current schema), nil when it could not be measured.
    @discardableResult
    private static func printFloor(path: String) async -> Double? {
        let queries = [
            ("json_extract", """
                SELECT arm_id, COUNT(*), AVG(total_ms), SUM(constraints_passed), AVG(json_extract(scores_json, '$[0].value'))
                FROM results WHERE run_id = 'bench' GROUP BY arm_id;
                """),
            ("side table", """
                SELECT r.arm_id, COUNT(*), AVG(r.total_ms), SUM(r.constraints_passed), AVG(s.value)
                FROM results r LEFT JOIN result_scores s ON s.result_id = r.id AND s.ordinal = 0
                WHERE r.run_id = 'bench' GROUP BY r.arm_id;
                """),
        ]
        var floor: Double?
        for (name, sql) in queries {
            let start = ContinuousClock.now
            do {
                let run = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [path, sql])
                guard run.status == 0 else {
                    print("report: floor (sqlite3 shell, \(name)) failed: \(run.stderr)")
                    continue
                }
                floor = elapsed(since: start)
                print("report: floor: sqlite3 shell aggregate per arm (\(name)) \(seconds(since: start)) s")
            } catch {
                print("report: floor (sqlite3 shell) not measured: \(error)")
                return nil
            }
        }
        return floor
    }

    private static func fill(path: String, arms: Int, casesPerArm: Int) async throws {
        let store = try SQLiteResultStore(path: path)
        try await store.createRun(RunRecord(
            id: "bench", features: ["summarize"], datasetPath: "synthetic", datasetHash: "none",
            plannedCount: arms * casesPerArm, seed: 1
        ))
        var rng = SplitMix64(seed: 1)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let batchSize = 5_000
        var batch: [ResultRecord] = []
        batch.reserveCapacity(batchSize)
        let date = Date(timeIntervalSince1970: 1_750_000_000)
        for caseIndex in 0..<casesPerArm {
            for arm in 0..<arms {
                let u = uniform()
                let passed = u > 0.05 + 0.02 * Double(arm)
                let errored = u < 0.01
                batch.append(ResultRecord(
                    key: ResultKey(runID: "bench", caseID: "case-\(caseIndex)", armID: "v\(arm)@model-\(arm)", repeatIndex: 0),
                    feature: "summarize", promptVariant: "v\(arm)", modelID: "model-\(arm)",
                    tier: arm == 0 ? .onDevice : .thirdParty, renderedPromptHash: "h\(caseIndex)",
                    renderedPrompt: "Summarise case \(caseIndex).", rawOutput: errored ? nil : "Summary \(caseIndex).",
                    usage: TokenUsage(promptTokens: 100 + caseIndex % 50, completionTokens: 30 + caseIndex % 20, isEstimated: arm == 0),
                    timings: ResultTimings(ttftMs: 50 + 100 * u, totalMs: 300 + 100 * Double(arm) + 500 * u, decodeTokensPerSecond: 40 + 20 * u),
                    costUSD: arm == 0 ? nil : 0.0001 * Double(arm),
                    constraints: errored ? [] : [ConstraintOutcome(name: "max_chars", passed: passed, message: passed ? nil : "too long")],
                    scores: errored ? [] : [QualityScore(scorer: "rouge_l", value: 0.3 + 0.05 * Double(arm) + 0.3 * uniform())],
                    error: errored ? ResultError(kind: "timeout", message: "timed out") : nil,
                    cacheHit: caseIndex % 97 == 0, completedAt: date
                ))
                if batch.count == batchSize {
                    try await store.insertResults(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try await store.insertResults(batch) }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> String {
        String(format: "%.2f", elapsed(since: start))
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
