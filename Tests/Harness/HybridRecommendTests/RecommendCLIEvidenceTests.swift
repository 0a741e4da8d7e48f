import Foundation
import HybridConfig
import HybridCore
import HybridProjectTestSupport
import HybridReport
import HybridStore
import HybridTestSupport
import Testing

/// Offline `hybrid recommend` through the real CLI on the situation that moved routes on noise: two prompt variants
/// with the same template on a stochastic model (each answer scores 1 or 0, 30 % zeros), 10 cases × 3 repeats. The
/// report saw no difference; recommend switched to the identical variant in 23 of 40 runs, because it judged the
/// current route against the best observed arm.
@Suite struct RecommendCLIEvidenceTests {
    @Test func identicalVariantsAreKeptThroughTheCLI() async throws {
        try await withTemporaryDirectory { directory in
            let db = directory.url.appendingPathComponent("hybrid.sqlite").path
            let store = SQLiteResultStore(database: try HybridDatabase(path: db))
            let runs = 20
            for run in 0..<runs { try await Self.storeRun("aa-\(run)", seed: UInt64(4_700 + run), in: store) }
            let config = directory.url.appendingPathComponent("config.json")
            let document = try StoredRunFixture.config(models: [("local", .onDevice, 0)], priority: ["local"], variants: ["a", "b"])
            try document.encodedJSON().write(to: config)
            var changed = 0
            for run in 0..<runs {
                let outcome = try await HybridCLI.run(
                    ["recommend", "aa-\(run)", "--db", db, "--config", config.path], in: directory.url)
                #expect(outcome.status == 0, "\(outcome.output)")
                if outcome.output.contains("CHANGE to ") { changed += 1 }
                if run == 0 {
                    #expect(outcome.output.contains("keep: no candidate shown better or shown as good and cheaper"), "\(outcome.output)")
                    #expect(outcome.output.contains("cases would show it") || outcome.output.contains("point the other way"), "\(outcome.output)")
                }
            }
            print("identical variants through hybrid recommend: \(changed) of \(runs) runs changed the route")
            #expect(changed <= 1, "\(changed) of \(runs) runs switched between identical variants")
        }
    }

    /// One run: cases of varied difficulty, each answer of either variant scoring 1 or 0 alike.
    static func storeRun(_ runID: String, seed: UInt64, in store: SQLiteResultStore) async throws {
        var rng = SplitMix64(seed: seed)
        try await store.createRun(RunRecord(
            id: runID, features: ["summarize"], datasetPath: "memory.jsonl", datasetHash: "h", plannedCount: 60, seed: 1))
        var records: [ResultRecord] = []
        for index in 0..<10 {
            let zeros = 0.3 * (0.5 + rng.nextUnit())
            for repeatIndex in 0..<3 {
                for variant in ["a", "b"] {
                    let score = rng.nextUnit() < zeros ? 0.0 : 1.0
                    records.append(ResultRecord(
                        key: ResultKey(runID: runID, caseID: String(format: "c%02d", index), armID: "\(variant)@local", repeatIndex: repeatIndex),
                        feature: "summarize", promptVariant: variant, modelID: "local", tier: .onDevice,
                        renderedPromptHash: "p\(index)", rawOutput: "output", usage: TokenUsage(promptTokens: 10, completionTokens: 5),
                        timings: ResultTimings(totalMs: 300 + 200 * rng.nextUnit()), costUSD: 0,
                        constraints: [ConstraintOutcome(name: "max_words", passed: true)],
                        scores: [QualityScore(scorer: "token_f1", value: score)]))
                }
            }
        }
        try await store.insertResults(records)
    }
}
