import Foundation
import HybridCore
import HybridReport
import HybridStore

/// A fixed synthetic run: two features, five arms, errors, cache hits, retries, cold starts, estimated usage,
/// priced and unpriced models. Deterministic (SplitMix64), so golden files stay byte-stable.
enum ReportFixtures {
    static let runID = "golden-run"
    static let date = Date(timeIntervalSince1970: 1_750_000_000)

    static func run(_ id: String = runID) -> RunRecord {
        RunRecord(
            id: id, features: ["summarize", "extract"], datasetPath: "datasets/summarize.jsonl", datasetHash: "sha256:abc",
            configVersion: 7, configHash: "sha256:cfg", startedAt: date, finishedAt: date.addingTimeInterval(90),
            status: .completed, plannedCount: 170, seed: 42
        )
    }

    struct Arm {
        var variant: String
        var model: String
        var tier: ModelTier
        var feature: String
        var cases: Int
        var scoreBase: Double
        var latencyBase: Double
        var failureRate: Double
        var costPerRequest: Double?
        var errorCases: Set<Int> = []
        var cacheHitCases: Set<Int> = []
        var retriedCases: Set<Int> = []
        var coldStartCases: Set<Int> = []
        var estimatedUsage = false
        var id: String { "\(variant)@\(model)" }
    }

    static let arms: [Arm] = [
        Arm(variant: "terse", model: "local-smollm2", tier: .onDevice, feature: "summarize", cases: 40, scoreBase: 0.30,
            latencyBase: 800, failureRate: 0.15, costPerRequest: nil, errorCases: [7, 19], coldStartCases: [0], estimatedUsage: true),
        Arm(variant: "terse", model: "gpt-4o-mini", tier: .thirdParty, feature: "summarize", cases: 40, scoreBase: 0.45,
            latencyBase: 600, failureRate: 0.05, costPerRequest: 0.00012, cacheHitCases: [3, 4], retriedCases: [5]),
        Arm(variant: "verbose", model: "gpt-4o-mini", tier: .thirdParty, feature: "summarize", cases: 40, scoreBase: 0.46,
            latencyBase: 900, failureRate: 0.30, costPerRequest: 0.0003),
        Arm(variant: "json", model: "local-smollm2", tier: .onDevice, feature: "extract", cases: 25, scoreBase: 0.50,
            latencyBase: 700, failureRate: 0.40, costPerRequest: nil, errorCases: [11], estimatedUsage: true),
        Arm(variant: "json", model: "gpt-4o-mini", tier: .thirdParty, feature: "extract", cases: 25, scoreBase: 0.68,
            latencyBase: 500, failureRate: 0.0, costPerRequest: 0.0001),
    ]

    /// Every result of the fixed run, in a deterministic order (arm by arm, case by case).
    static func results(runID: String = runID, arms: [Arm] = arms, seed: UInt64 = 7) -> [ResultRecord] {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { rng.nextUnit() }
        var results: [ResultRecord] = []
        for arm in arms {
            for index in 0..<arm.cases {
                let caseID = String(format: "%@-%02d", arm.feature == "summarize" ? "s" : "e", index + 1)
                let u = uniform()
                let v = uniform()
                let failed = u < arm.failureRate
                let errored = arm.errorCases.contains(index)
                let scorer = arm.feature == "summarize" ? "rouge_l" : "field_match"
                var constraints: [ConstraintOutcome] = []
                if !errored {
                    if arm.feature == "summarize" {
                        constraints = [
                            ConstraintOutcome(
                                name: "max_chars", passed: !failed, observed: failed ? .int(312) : .int(180),
                                message: failed ? "312 characters, limit 280" : nil)
                        ]
                    } else {
                        constraints = [
                            ConstraintOutcome(name: "json_schema", passed: !failed, message: failed ? "$.date: missing required field" : nil),
                            ConstraintOutcome(name: "valid_json", passed: true),
                        ]
                    }
                }
                let cold = arm.coldStartCases.contains(index)
                let total = cold ? 5_000 + 100 * v : arm.latencyBase + 400 * v
                results.append(ResultRecord(
                    key: ResultKey(runID: runID, caseID: caseID, armID: arm.id, repeatIndex: 0),
                    feature: arm.feature, promptVariant: arm.variant, modelID: arm.model, tier: arm.tier,
                    renderedPromptHash: "sha256:\(caseID)",
                    renderedPrompt: "Summarise in one sentence: case \(caseID) text | with a pipe",
                    rawOutput: errored ? nil : "Output for \(caseID) from \(arm.id) <b>bold</b>",
                    usage: errored ? nil : TokenUsage(promptTokens: 120 + index, completionTokens: 30 + index % 7, isEstimated: arm.estimatedUsage),
                    timings: ResultTimings(
                        ttftMs: errored ? nil : total * 0.2, totalMs: errored ? 30_000 : total,
                        decodeTokensPerSecond: errored ? nil : 40 + 10 * u, retryBackoffMs: arm.retriedCases.contains(index) ? 500 : 0,
                        coldStart: cold
                    ),
                    costUSD: errored ? nil : arm.costPerRequest,
                    constraints: constraints,
                    scores: errored ? [] : [QualityScore(scorer: scorer, value: ((arm.scoreBase + 0.3 * v) * 1000).rounded() / 1000)],
                    error: errored ? ResultError(kind: "timeout", message: "no response within 30 s") : nil,
                    retries: arm.retriedCases.contains(index) ? 1 : 0,
                    cacheHit: arm.cacheHitCases.contains(index),
                    completedAt: date
                ))
            }
        }
        return results
    }

    /// The fixed run's report, built in memory.
    static func report(options: ReportOptions = ReportOptions()) -> RunReport {
        ReportBuilder(options: options).build(runID: runID, run: run(), results: results())
    }

    /// A temporary directory removed after `body`.
    static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-report-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }

    /// A SQLite store at `directory/hybrid.sqlite` holding the fixed run (and `extraRuns`).
    static func store(in directory: URL, runs: [(RunRecord, [ResultRecord])] = [(run(), results())]) async throws -> SQLiteResultStore {
        let store = try SQLiteResultStore(path: directory.appendingPathComponent("hybrid.sqlite").path)
        for (run, results) in runs {
            try await store.createRun(run)
            try await store.insertResults(results)
        }
        return store
    }

    /// A result with only the fields a test cares about.
    static func result(
        run: String = "r", feature: String = "f", caseID: String, arm: String = "v@m", repeatIndex: Int = 0,
        passed: Bool? = true, score: Double? = nil, totalMs: Double = 100, error: String? = nil, message: String = "failed",
        cacheHit: Bool = false, retries: Int = 0, coldStart: Bool = false, cost: Double? = nil
    ) -> ResultRecord {
        let parts = arm.split(separator: "@").map(String.init)
        return ResultRecord(
            key: ResultKey(runID: run, caseID: caseID, armID: arm, repeatIndex: repeatIndex),
            feature: feature, promptVariant: parts.first ?? arm, modelID: parts.last ?? arm, tier: .thirdParty,
            renderedPromptHash: "h", renderedPrompt: "in \(caseID)", rawOutput: error == nil ? "out \(caseID)" : nil,
            usage: TokenUsage(promptTokens: 10, completionTokens: 5),
            timings: ResultTimings(ttftMs: totalMs / 4, totalMs: totalMs, coldStart: coldStart),
            costUSD: cost,
            constraints: passed.map { [ConstraintOutcome(name: "c", passed: $0)] } ?? [],
            scores: score.map { [QualityScore(scorer: "q", value: $0)] } ?? [],
            error: error.map { ResultError(kind: $0, message: message) },
            retries: retries, cacheHit: cacheHit, completedAt: date
        )
    }
}
