import Foundation
import HybridCore
import HybridReport
@testable import HybridStore
import Testing

/// The report built from a SQLite store, against a committed golden file: whatever path the store takes to the
/// figures (full rows, narrow columns, SQL aggregates), the report must not change. Regenerate with
/// `UPDATE_GOLDEN=1 swift test --filter StoreReportGoldenTests` only for an intended change of the report itself.
@Suite("Store report golden file")
struct StoreReportGoldenTests {
    /// The fixed run plus what it lacks: repeats, a second scorer, an arm never sent, a feature without constraints,
    /// a non-finite-free mix of cache hits, retries and cold starts on repeats.
    static func results() -> [ResultRecord] {
        var results = ReportFixtures.results()
        var rng = SplitMix64(seed: 99)
        func uniform() -> Double { rng.nextUnit() }
        for repeatIndex in 1...2 {
            for index in 0..<30 {
                for arm in ["terse@gpt-4o-mini", "verbose@gpt-4o-mini"] {
                    let u = uniform()
                    var record = ReportFixtures.result(
                        run: ReportFixtures.runID, feature: "summarize", caseID: String(format: "s-%02d", index + 1),
                        arm: arm, repeatIndex: repeatIndex, passed: u > 0.2, score: (u * 1000).rounded() / 1000,
                        totalMs: 400 + 600 * uniform(), error: index == 13 && repeatIndex == 2 ? "rate_limited" : nil,
                        cacheHit: index % 11 == 0, retries: index % 7 == 3 ? 2 : 0, coldStart: index == 0 && repeatIndex == 1,
                        cost: 0.0002)
                    if record.error == nil {
                        record.scores.append(QualityScore(scorer: "judge:faithful", value: Double(Int(u * 5)) / 4))
                        record.constraints.append(ConstraintOutcome(name: "max_chars", passed: u > 0.1))
                    }
                    results.append(record)
                }
            }
        }
        for index in 0..<12 {
            results.append(ReportFixtures.result(
                run: ReportFixtures.runID, feature: "chat", caseID: "c-\(index)", arm: "plain@local-smollm2",
                passed: nil, score: index % 3 == 0 ? nil : Double(index) / 12, totalMs: 200 + Double(index * 37)))
            results.append(ReportFixtures.result(
                run: ReportFixtures.runID, feature: "chat", caseID: "c-\(index)", arm: "plain@claude-haiku",
                passed: nil, error: "unavailable", message: "claude-haiku: unavailable: ANTHROPIC_API_KEY not set"))
        }
        return results
    }

    @Test("report.json built from the store is unchanged")
    func storeReport() async throws {
        try await ReportFixtures.withTemporaryDirectory { directory in
            let store = try await ReportFixtures.store(in: directory, runs: [(ReportFixtures.run(), Self.results())])
            let report = try await ReportBuilder().build(store: store, runID: ReportFixtures.runID)
            try GoldenFileTests.check(String(decoding: try report.jsonData(), as: UTF8.self), file: "store-report.json")
        }
    }

    @Test("a store with only the protocol's default read paths (whole records) gives the same report")
    func defaultReadPaths() async throws {
        try await ReportFixtures.withTemporaryDirectory { directory in
            let store = try await ReportFixtures.store(in: directory, runs: [(ReportFixtures.run(), Self.results())])
            let report = try await ReportBuilder().build(store: WholeRecordStore(base: store), runID: ReportFixtures.runID)
            try GoldenFileTests.check(String(decoding: try report.jsonData(), as: UTF8.self), file: "store-report.json")
        }
    }

    @Test("a file written before v7 (no packed measures) migrates and gives the same report")
    func version6FileMigrates() async throws {
        try await ReportFixtures.withTemporaryDirectory { directory in
            do {
                let written = try await ReportFixtures.store(in: directory, runs: [(ReportFixtures.run(), Self.results())])
                // What a v6 build left: the same tables without `result_measures`.
                try await written.database.write("to v6") { db in
                    try db.execute(sql: "DROP TABLE result_measures; DELETE FROM grdb_migrations WHERE identifier = 'v7'")
                    let triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'result_measures_%'"
                    for trigger in try String.fetchAll(db, sql: triggers) { try db.execute(sql: "DROP TRIGGER \(trigger)") }
                }
            }
            let store = try SQLiteResultStore(path: directory.appendingPathComponent("hybrid.sqlite").path)
            let packed = try await store.database.read("count") { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM result_measures")
            }
            #expect(packed == Self.results().count)  // backfilled, so the report reads the packed rows
            let report = try await ReportBuilder().build(store: store, runID: ReportFixtures.runID)
            try GoldenFileTests.check(String(decoding: try report.jsonData(), as: UTF8.self), file: "store-report.json")
        }
    }
}

/// A `ResultStore` that implements only the protocol's requirements without defaults, forwarding to SQLite: what a
/// third-party store (PostgreSQL) gets when it does not override the aggregate read paths.
struct WholeRecordStore: ResultStore {
    let base: SQLiteResultStore

    func createRun(_ run: RunRecord) async throws(StoreError) { try await base.createRun(run) }
    func saveConfig(_ body: String, hash: String) async throws(StoreError) { try await base.saveConfig(body, hash: hash) }
    func config(hash: String) async throws(StoreError) -> String? { try await base.config(hash: hash) }
    func run(id: String) async throws(StoreError) -> RunRecord? { try await base.run(id: id) }
    func runs(limit: Int?) async throws(StoreError) -> [RunRecord] { try await base.runs(limit: limit) }
    func finishRun(id: String, at date: Date) async throws(StoreError) { try await base.finishRun(id: id, at: date) }
    func markInterrupted(id: String, at date: Date) async throws(StoreError) { try await base.markInterrupted(id: id, at: date) }
    func markResumed(id: String) async throws(StoreError) { try await base.markResumed(id: id) }
    func insertResult(_ result: ResultRecord) async throws(StoreError) -> Bool { try await base.insertResult(result) }
    func insertResults(_ results: [ResultRecord]) async throws(StoreError) -> [Bool] { try await base.insertResults(results) }
    func insertResults(_ results: [ResultRecord], caching responses: [CachedResponseRecord]) async throws(StoreError) -> [Bool] {
        try await base.insertResults(results, caching: responses)
    }
    func completedKeys(run: String) async throws(StoreError) -> Set<ResultKey> { try await base.completedKeys(run: run) }
    func resultCount(run: String) async throws(StoreError) -> Int { try await base.resultCount(run: run) }
    func results(run: String) async throws(StoreError) -> [ResultRecord] { try await base.results(run: run) }
    nonisolated(nonsending) func forEachResult(
        run: String, batchSize: Int, _ body: (ResultRecord) async throws -> Void
    ) async throws {
        try await base.forEachResult(run: run, batchSize: batchSize, body)
    }
    func cachedResponse(requestHash: String) async throws(StoreError) -> CachedResponseRecord? {
        try await base.cachedResponse(requestHash: requestHash)
    }
    func storeCachedResponse(_ response: CachedResponseRecord) async throws(StoreError) {
        try await base.storeCachedResponse(response)
    }
    func savePairwiseVerdict(_ verdict: PairwiseVerdictRecord) async throws(StoreError) {
        try await base.savePairwiseVerdict(verdict)
    }
    func pairwiseVerdicts(run: String) async throws(StoreError) -> [PairwiseVerdictRecord] {
        try await base.pairwiseVerdicts(run: run)
    }
}
