package import Foundation
import GRDB

/// The SQLite `ResultStore`: runs and results in the `runs` and `results` tables of a `HybridDatabase`.
///
/// Over a file it reads through GRDB's connection pool (WAL), so a report or `--resume` reading a run never waits
/// for the runner's writes and never sees a half-written result.
public final class SQLiteResultStore: ResultStore, RunStatusStore {
    /// The database holding the `runs`, `results` and `response_cache` tables.
    public let database: HybridDatabase

    /// A store over an open database (which other stores may share).
    public init(database: HybridDatabase) {
        self.database = database
    }

    /// Opens (creating when missing) the database file at `path`; see `HybridDatabase.init(path:)`.
    public convenience init(path: String) throws(StoreError) {
        self.init(database: try HybridDatabase(path: path))
    }

    // MARK: - Runs

    public func createRun(_ run: RunRecord) async throws(StoreError) {
        let path = database.path
        try await database.write("create run \(run.id)") { db in
            do {
                try Stored(run).insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                throw StoreError.runAlreadyExists(path: path, runID: run.id)
            }
        }
    }

    public func saveConfig(_ body: String, hash: String) async throws(StoreError) {
        try await database.write("store config \(hash)") { db in
            try db.execute(
                sql: "INSERT INTO run_configs (config_hash, body) VALUES (?, ?) ON CONFLICT (config_hash) DO NOTHING",
                arguments: [hash, body])
        }
    }

    public func config(hash: String) async throws(StoreError) -> String? {
        try await database.read("read config \(hash)") { db in
            try String.fetchOne(db, sql: "SELECT body FROM run_configs WHERE config_hash = ?", arguments: [hash])
        }
    }

    public func run(id: String) async throws(StoreError) -> RunRecord? {
        try await database.read("read run \(id)") { db in
            try Stored<RunRecord>.fetchOne(db, sql: "SELECT * FROM runs WHERE id = ?", arguments: [id])?.value
        }
    }

    public func runs(limit: Int?) async throws(StoreError) -> [RunRecord] {
        try await database.read("list runs") { db in
            try Stored<RunRecord>.fetchAll(
                db,
                sql: "SELECT * FROM runs ORDER BY started_at DESC, id DESC LIMIT ?",
                arguments: [limit ?? -1]
            ).map(\.value)
        }
    }

    /// One `UPDATE` of the run's row; the lifecycle calls built on it are `RunStatusStore`'s.
    package func setStatus(_ status: RunStatus, finishedAt: Date?, runID: String) async throws(StoreError) {
        let path = database.path
        try await database.write("mark run \(runID) \(status.rawValue)") { db in
            try db.execute(
                sql: "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?",
                arguments: [status.rawValue, finishedAt.map(StoreDate.text), runID]
            )
            if db.changesCount == 0 {
                throw StoreError.runNotFound(path: path, runID: runID)
            }
        }
    }

    // MARK: - Results

    @discardableResult
    public func insertResult(_ result: ResultRecord) async throws(StoreError) -> Bool {
        let path = database.path
        return try await database.write("store result \(result.key)") { db in
            try Self.insertIfAbsent(result, db: db, path: path)
        }
    }

    @discardableResult
    public func insertResults(_ results: [ResultRecord]) async throws(StoreError) -> [Bool] {
        try await insertResults(results, caching: [])
    }

    public func insertResults(
        _ results: [ResultRecord], caching responses: [CachedResponseRecord]
    ) async throws(StoreError) -> [Bool] {
        let path = database.path
        return try await database.write("store \(results.count) results") { db in
            // The statements are looked up once per commit, not once per row: the lookup hashes the whole SQL text.
            let statements = try ResultRecord.InsertStatements(db, caching: !responses.isEmpty)
            for response in responses { try statements.replace(response) }
            return try results.map { try Self.insertIfAbsent($0, db: db, path: path, statements: statements) }
        }
    }

    /// Inserts unless the key exists. Only the unique-key conflict is ignored: a plain `INSERT OR IGNORE` would
    /// also silently drop rows that break NOT NULL or CHECK constraints and report them as duplicates.
    static func insertIfAbsent(_ result: ResultRecord, db: Database, path: String) throws -> Bool {
        try insertIfAbsent(result, db: db, path: path, statements: ResultRecord.InsertStatements(db))
    }

    /// `insertIfAbsent` with the statements already looked up (a batch reuses them for every row).
    static func insertIfAbsent(
        _ result: ResultRecord, db: Database, path: String, statements: ResultRecord.InsertStatements
    ) throws -> Bool {
        do {
            // Positional arguments: the record path builds a column dictionary per row.
            try statements.insert(result)
            let rowID = db.lastInsertedRowID
            try ResultRecord.insertSideRows(
                rowID: rowID, constraints: result.constraints, scores: result.scores, statements: statements)
            if let measures = statements.measures { try PackedMeasures.insert(result, rowID: rowID, statement: measures) }
            return true
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return false
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw StoreError.runNotFound(path: path, runID: result.key.runID)
        }
    }

    public func completedKeys(run: String) async throws(StoreError) -> Set<ResultKey> {
        try await database.read("read completed keys of run \(run)") { db in
            // Answered from the unique index alone, without touching the table.
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT case_id, arm_id, repeat_index FROM results WHERE run_id = ?",
                arguments: [run]
            )
            var keys = Set<ResultKey>()
            while let row = try rows.next() {
                keys.insert(
                    ResultKey(
                        runID: run,
                        caseID: try row.decode(atIndex: 0),
                        armID: try row.decode(atIndex: 1),
                        repeatIndex: try row.decode(atIndex: 2)
                    )
                )
            }
            return keys
        }
    }

    public func resultCount(run: String) async throws(StoreError) -> Int {
        try await database.read("count results of run \(run)") { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM results WHERE run_id = ?", arguments: [run]) ?? 0
        }
    }

    public func results(run: String) async throws(StoreError) -> [ResultRecord] {
        try await database.read("read results of run \(run)") { db in
            try Stored<ResultRecord>.fetchAll(
                db,
                sql: "SELECT * FROM results WHERE run_id = ? ORDER BY id",
                arguments: [run]
            ).map(\.value)
        }
    }

    nonisolated(nonsending) public func forEachResult(
        run: String,
        batchSize: Int,
        _ body: (ResultRecord) async throws -> Void
    ) async throws {
        let limit = max(1, batchSize)
        var after = Int64.min
        while true {
            // Keyset paging on the rowid: each page is a short read transaction that seeks the
            // (run_id, rowid) index, so a million-row report never holds a snapshot open or sorts.
            let cursorStart = after
            let page = try await database.read("read results of run \(run)") { db in
                let rows = try Row.fetchCursor(
                    db,
                    sql: "SELECT \(ResultRecord.positionalColumns) FROM results WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?",
                    arguments: [run, cursorStart, limit]
                )
                var page = ResultPage()
                page.results.reserveCapacity(limit)
                while let row = try rows.next() {
                    page.lastRowID = try row.decode(Int64.self, atIndex: 0)
                    page.results.append(try Stored<ResultRecord>(positionalRow: row).value)
                }
                return page
            }
            for result in page.results {
                try await body(result)
            }
            guard page.results.count == limit, let lastRowID = page.lastRowID else { return }
            after = lastRowID
        }
    }

    // MARK: - Response cache

    public func cachedResponse(requestHash: String) async throws(StoreError) -> CachedResponseRecord? {
        try await database.read("read cached response") { db in
            try Stored<CachedResponseRecord>.fetchOne(
                db,
                sql: "SELECT * FROM response_cache WHERE request_key = ? AND request_hash = ?",
                arguments: [CachedResponseRecord.requestKey(requestHash), requestHash]
            )?.value
        }
    }

    public func storeCachedResponse(_ response: CachedResponseRecord) async throws(StoreError) {
        try await database.write("store cached response") { db in
            try Stored(response).insert(db, onConflict: .replace)
        }
    }
}

/// One page of a streamed read and where the next page starts.
private struct ResultPage: Sendable {
    var results: [ResultRecord] = []
    var lastRowID: Int64?
}
