public import Foundation

/// Durable storage for eval runs and their results, and the response cache the runner consults.
///
/// Every method is safe to call from many tasks at once. Writes are serialized and each is one transaction;
/// once a write method returns, its data survives a crash of the process.
public protocol ResultStore: Sendable {
    /// Records a new run. Throws `StoreError.runAlreadyExists` when the id is taken.
    func createRun(_ run: RunRecord) async throws(StoreError)
    /// Keeps the text of the config document a run ran under, by its content hash (the run's `configHash`); storing
    /// a hash already stored changes nothing.
    func saveConfig(_ body: String, hash: String) async throws(StoreError)
    /// The config text stored under `hash`, or nil (runs made before configs were kept).
    func config(hash: String) async throws(StoreError) -> String?
    /// The run with this id, or nil.
    func run(id: String) async throws(StoreError) -> RunRecord?
    /// Runs, most recently started first; at most `limit` when given.
    func runs(limit: Int?) async throws(StoreError) -> [RunRecord]
    /// Marks the run completed at `date`. Throws `StoreError.runNotFound` for an unknown id.
    func finishRun(id: String, at date: Date) async throws(StoreError)
    /// Marks the run interrupted at `date` (Ctrl-C, budget cap); `--resume` can finish it later.
    func markInterrupted(id: String, at date: Date) async throws(StoreError)
    /// Marks a run running again, for `--resume`: clears `finishedAt`.
    func markResumed(id: String) async throws(StoreError)

    /// Stores one result unless its key is already stored. Returns true when inserted, false when the key existed
    /// (the stored row is left as it was). Throws `StoreError.runNotFound` when the run does not exist.
    @discardableResult
    func insertResult(_ result: ResultRecord) async throws(StoreError) -> Bool
    /// Stores results in one transaction with the same insert-or-ignore rule; one Bool per input, in order.
    @discardableResult
    func insertResults(_ results: [ResultRecord]) async throws(StoreError) -> [Bool]
    /// Inserts results and response-cache entries in one transaction (one fsync for both), so a run that also
    /// fills the cache pays for durability once per group, not twice per result.
    func insertResults(_ results: [ResultRecord], caching responses: [CachedResponseRecord]) async throws(StoreError) -> [Bool]
    /// The keys of every stored result of the run: what `--resume` must not run again.
    func completedKeys(run: String) async throws(StoreError) -> Set<ResultKey>
    /// How many results the run has stored.
    func resultCount(run: String) async throws(StoreError) -> Int
    /// Every result of the run in insertion order, in memory. Prefer `forEachResult` for large runs.
    func results(run: String) async throws(StoreError) -> [ResultRecord]
    /// Calls `body` with each result of the run in insertion order, reading `batchSize` rows per read
    /// transaction so memory stays flat and writers are never blocked. Results inserted while streaming
    /// may or may not be seen. Rethrows what `body` throws; store failures come as `StoreError`.
    nonisolated(nonsending) func forEachResult(
        run: String,
        batchSize: Int,
        _ body: (ResultRecord) async throws -> Void
    ) async throws

    /// The stored results with these keys, in no particular order (keys not stored are left out): what a report
    /// reads to show a few listed cases without streaming whole runs again.
    func results(keys: [ResultKey]) async throws(StoreError) -> [ResultRecord]

    /// Like `forEachResult`, but only the ``ResultMeasures`` of each result (no texts): what reports, `compare`,
    /// `recommend` and the viewer aggregate. The default streams whole records; stores that can read fewer columns
    /// (SQLite: typed columns and side tables, never JSON) override it. Same order and consistency as
    /// `forEachResult`.
    nonisolated(nonsending) func forEachMeasures(
        run: String,
        batchSize: Int,
        _ body: (ResultMeasures) async throws -> Void
    ) async throws

    /// Like `forEachMeasures`, but a page of results at a time as parallel arrays (``MeasureColumns``): what reports
    /// read, with no value built per result. The default collects `forEachMeasures`; the SQLite store fills the
    /// columns straight from its statements. Each page holds at most `batchSize` results, in the same order.
    nonisolated(nonsending) func forEachMeasureColumns(
        run: String,
        batchSize: Int,
        _ body: (MeasureColumns) async throws -> Void
    ) async throws

    /// The cached response for a request hash, or nil.
    func cachedResponse(requestHash: String) async throws(StoreError) -> CachedResponseRecord?
    /// Stores (or replaces) the cached response for its request hash.
    func storeCachedResponse(_ response: CachedResponseRecord) async throws(StoreError)

    /// Stores (or replaces) a pairwise judgement of the run. Throws `StoreError.runNotFound` for an unknown run.
    func savePairwiseVerdict(_ verdict: PairwiseVerdictRecord) async throws(StoreError)
    /// Every pairwise judgement of the run, ordered by arm, baseline and case.
    func pairwiseVerdicts(run: String) async throws(StoreError) -> [PairwiseVerdictRecord]
}

extension ResultStore {
    /// Streams a run's results in batches of 1,000; see `forEachResult(run:batchSize:_:)`.
    nonisolated(nonsending) public func forEachResult(run: String, _ body: (ResultRecord) async throws -> Void) async throws {
        try await forEachResult(run: run, batchSize: 1000, body)
    }

    /// The measures of each whole record from `forEachResult`: correct for any store, as slow as full rows.
    nonisolated(nonsending) public func forEachMeasures(
        run: String,
        batchSize: Int,
        _ body: (ResultMeasures) async throws -> Void
    ) async throws {
        try await forEachResult(run: run, batchSize: batchSize) { try await body(ResultMeasures($0)) }
    }

    /// Pages of `batchSize` results collected from `forEachMeasures`: correct for any store.
    nonisolated(nonsending) public func forEachMeasureColumns(
        run: String,
        batchSize: Int,
        _ body: (MeasureColumns) async throws -> Void
    ) async throws {
        let limit = max(1, batchSize)
        var page = MeasureColumns(runID: run)
        try await forEachMeasures(run: run, batchSize: limit) { measures in
            page.append(measures)
            if page.count == limit {
                try await body(page)
                page = MeasureColumns(runID: run)
            }
        }
        if page.count > 0 { try await body(page) }
    }

    /// Streams each run the keys name and keeps the matching results; stores with indexed lookups do better.
    public func results(keys: [ResultKey]) async throws(StoreError) -> [ResultRecord] {
        var found: [ResultRecord] = []
        let wanted = Set(keys)
        for run in Set(keys.map(\.runID)) {
            do {
                try await forEachResult(run: run) { if wanted.contains($0.key) { found.append($0) } }
            } catch let error as StoreError {
                throw error
            } catch {
                throw .operationFailed(path: "", operation: "read results by key", reason: String(describing: error))
            }
        }
        return found
    }

    /// Every run, most recently started first.
    public func runs() async throws(StoreError) -> [RunRecord] {
        try await runs(limit: nil)
    }
}
