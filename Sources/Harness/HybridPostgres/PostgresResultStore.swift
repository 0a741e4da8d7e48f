package import Foundation
import HybridCore
public import HybridStore

/// The PostgreSQL `ResultStore`: the same runs, results and response cache as `SQLiteResultStore`, shared by every
/// process that connects.
///
/// Results are unique on (run, case, arm, repeat) and inserted with `ON CONFLICT DO NOTHING` on that key only, so
/// two workers that both ran a key (a lease that expired while its worker still ran) store it once. Storing a
/// result also removes its key from the workers' queue (`work_claims`) in the same transaction.
public final class PostgresResultStore: ResultStore, RunStatusStore {
    /// The database and its connection pool.
    public let database: PostgresDatabase

    /// A store over an open database (which other stores may share).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    // MARK: - Runs

    public func createRun(_ run: RunRecord) async throws(StoreError) {
        _ = try await database.transaction("create run \(run.id)") { connection in
            try await Self.insert(run, on: connection, location: database.location)
        }
    }

    /// Inserts the run; `runAlreadyExists` when its id is taken.
    static func insert(_ run: RunRecord, on connection: PostgresConnection, location: String) async throws {
        do {
            try await connection.query(try PostgresRows.insert(run), logger: PostgresDatabase.logger)
        } catch where PostgresDatabase.sqlState(error) == "23505" {
            throw StoreError.runAlreadyExists(path: location, runID: run.id)
        }
    }

    public func saveConfig(_ body: String, hash: String) async throws(StoreError) {
        try await database.rows(
            "store config \(hash)",
            "INSERT INTO run_configs (config_hash, body) VALUES (\(hash), \(body)) ON CONFLICT (config_hash) DO NOTHING")
    }

    public func config(hash: String) async throws(StoreError) -> String? {
        let rows = try await database.rows("read config \(hash)", "SELECT body FROM run_configs WHERE config_hash = \(hash)")
        return try rows.first.map { row throws(StoreError) in try decode("run_configs") { try row.decode(String.self) } }
    }

    public func run(id: String) async throws(StoreError) -> RunRecord? {
        let rows = try await database.rows("read run \(id)", "SELECT \(unescaped: PostgresRows.runColumns) FROM runs WHERE id = \(id)")
        return try rows.first.map { row throws(StoreError) in try decode("runs") { try PostgresRows.run(row) } }
    }

    public func runs(limit: Int?) async throws(StoreError) -> [RunRecord] {
        let rows = try await database.rows(
            "list runs",
            "SELECT \(unescaped: PostgresRows.runColumns) FROM runs ORDER BY started_at DESC, id DESC LIMIT \(limit)")
        return try rows.map { row throws(StoreError) in try decode("runs") { try PostgresRows.run(row) } }
    }

    /// One `UPDATE` of the run's row; the lifecycle calls built on it are `RunStatusStore`'s.
    package func setStatus(_ status: RunStatus, finishedAt: Date?, runID: String) async throws(StoreError) {
        let rows = try await database.rows(
            "mark run \(runID) \(status.rawValue)",
            "UPDATE runs SET status = \(status.rawValue), finished_at = \(finishedAt?.storedPrecision) WHERE id = \(runID) RETURNING id")
        if rows.isEmpty { throw StoreError.runNotFound(path: database.location, runID: runID) }
    }

    // MARK: - Results

    @discardableResult
    public func insertResult(_ result: ResultRecord) async throws(StoreError) -> Bool {
        try await insertResults([result], caching: [])[0]
    }

    @discardableResult
    public func insertResults(_ results: [ResultRecord]) async throws(StoreError) -> [Bool] {
        try await insertResults(results, caching: [])
    }

    public func insertResults(
        _ results: [ResultRecord], caching responses: [CachedResponseRecord]
    ) async throws(StoreError) -> [Bool] {
        guard !results.isEmpty || !responses.isEmpty else { return [] }
        // Encode (and refuse non-finite numbers) before anything is sent.
        let inserts = try results.map { result throws(StoreError) in try PostgresRows.insertAndRelease(result) }
        let caches = try responses.map { response throws(StoreError) in try PostgresRows.upsert(response) }
        let location = database.location
        return try await database.transaction("store \(results.count) results") { connection in
            for cache in caches { try await connection.query(cache, logger: PostgresDatabase.logger) }
            var inserted: [Bool] = []
            inserted.reserveCapacity(inserts.count)
            for (query, result) in zip(inserts, results) {
                do {
                    let rows = try await connection.query(query, logger: PostgresDatabase.logger)
                    inserted.append(try rows.first?.decode(Int.self) ?? 0 > 0)
                } catch where PostgresDatabase.sqlState(error) == "23503" {
                    throw StoreError.runNotFound(path: location, runID: result.key.runID)
                }
            }
            return inserted
        }
    }

    public func completedKeys(run: String) async throws(StoreError) -> Set<ResultKey> {
        let rows = try await database.rows(
            "read completed keys of run \(run)",
            "SELECT case_id, arm_id, repeat_index FROM results WHERE run_id = \(run)")
        var keys = Set<ResultKey>()
        for row in rows {
            let (caseID, armID, repeatIndex) = try decode("results") { try row.decode((String, String, Int).self) }
            keys.insert(ResultKey(runID: run, caseID: caseID, armID: armID, repeatIndex: repeatIndex))
        }
        return keys
    }

    public func resultCount(run: String) async throws(StoreError) -> Int {
        let rows = try await database.rows("count results of run \(run)", "SELECT COUNT(*) FROM results WHERE run_id = \(run)")
        return try decode("results") { try rows.first?.decode(Int.self) ?? 0 }
    }

    public func results(run: String) async throws(StoreError) -> [ResultRecord] {
        var all: [ResultRecord] = []
        do {
            try await forEachResult(run: run, batchSize: 5000) { all.append($0) }
        } catch {
            throw database.storeError(error, operation: "read results of run \(run)")
        }
        return all
    }

    nonisolated(nonsending) public func forEachResult(
        run: String,
        batchSize: Int,
        _ body: (ResultRecord) async throws -> Void
    ) async throws {
        let limit = max(1, batchSize)
        var after = Int.min
        while true {
            // Keyset paging on the identity column over the (run_id, id) index: short reads, no open cursor.
            let rows = try await database.rows(
                "read results of run \(run)",
                "SELECT id, \(unescaped: PostgresRows.resultColumns) FROM results WHERE run_id = \(run) AND id > \(after) ORDER BY id LIMIT \(limit)")
            for row in rows {
                after = try decode("results") { try row.makeRandomAccess()["id"].decode(Int.self) }
                try await body(try decode("results") { try PostgresRows.result(row) })
            }
            if rows.count < limit { return }
        }
    }

    public func results(keys: [ResultKey]) async throws(StoreError) -> [ResultRecord] {
        var found: [ResultRecord] = []
        for key in keys {
            let rows = try await database.rows(
                "read result \(key)",
                "SELECT 0, \(unescaped: PostgresRows.resultColumns) FROM results WHERE run_id = \(key.runID) AND case_id = \(key.caseID) AND arm_id = \(key.armID) AND repeat_index = \(key.repeatIndex)")
            for row in rows { found.append(try decode("results") { try PostgresRows.result(row) }) }
        }
        return found
    }

    // MARK: - Response cache

    public func cachedResponse(requestHash: String) async throws(StoreError) -> CachedResponseRecord? {
        let rows = try await database.rows(
            "read cached response",
            "SELECT \(unescaped: PostgresRows.cacheColumns) FROM response_cache WHERE request_hash = \(requestHash)")
        return try rows.first.map { row throws(StoreError) in try decode("response_cache") { try PostgresRows.cachedResponse(row) } }
    }

    public func storeCachedResponse(_ response: CachedResponseRecord) async throws(StoreError) {
        try await database.rows("store cached response", try PostgresRows.upsert(response))
    }

    /// Runs a row decoding; a failure is an unreadable row of `table`, named with the database.
    func decode<T>(_ table: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unreadableRow(path: database.location, table: table, reason: "\(error)")
        }
    }
}
