import Foundation
import GRDB

/// One database file `hybrid merge` reads: an input (opened read-only, so merging never changes it) or the output
/// when it already exists. Reads are synchronous: the merge is one batch job with nothing else to run meanwhile.
struct MergeSource {
    /// The file as the user named it, for messages.
    let path: String
    let database: HybridDatabase
    /// The output file itself: its rows are already there and are never inserted again.
    let isOutput: Bool

    func runs() throws(StoreError) -> [RunRecord] {
        try read("list runs") { db in
            try Stored<RunRecord>.fetchAll(db, sql: "SELECT * FROM runs ORDER BY started_at, id").map(\.value)
        }
    }

    /// Every result of the run, in insertion order, in one read transaction (one snapshot of the file).
    func forEachResult(run: String, _ body: (ResultRecord) throws -> Void) throws(StoreError) {
        try read("read results of run \(run)") { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(ResultRecord.positionalColumns) FROM results WHERE run_id = ? ORDER BY id",
                arguments: [run])
            while let row = try rows.next() { try body(try Stored<ResultRecord>(positionalRow: row).value) }
        }
    }

    func result(_ key: ResultKey) throws(StoreError) -> ResultRecord? {
        try read("read result \(key)") { db in
            try Row.fetchOne(
                db,
                sql: "SELECT \(ResultRecord.positionalColumns) FROM results "
                    + "WHERE run_id = ? AND case_id = ? AND arm_id = ? AND repeat_index = ?",
                arguments: [key.runID, key.caseID, key.armID, key.repeatIndex]
            ).map { try Stored<ResultRecord>(positionalRow: $0).value }
        }
    }

    /// The accepted config snapshots, oldest first.
    func snapshots() throws(StoreError) -> [SnapshotRow] {
        try read("read config snapshots") { db in
            try Row.fetchAll(
                db,
                sql: "SELECT source_url, version, etag, fetched_at, raw_bytes, signature, content_hash "
                    + "FROM config_snapshots ORDER BY accepted_seq"
            ).map(SnapshotRow.init(row:))
        }
    }

    /// The body of the config a run ran with (`run_configs`), when this file keeps it.
    func runConfig(hash: String) throws(StoreError) -> String? {
        try read("read config \(hash) from \(path)") { db in
            try String.fetchOne(db, sql: "SELECT body FROM run_configs WHERE config_hash = ?", arguments: [hash])
        }
    }

    private func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.writer.read(body)
        } catch {
            throw database.mapError(error, operation: operation)
        }
    }
}

/// A `config_snapshots` row copied column for column (the fetch time as stored text), so a merged file's
/// last-known-good history is the inputs' own.
struct SnapshotRow: Hashable {
    var sourceURL: String
    var version: Int
    var etag: String?
    var fetchedAt: String
    var rawBytes: Data
    var signature: Data?
    var contentHash: String?

    init(row: Row) throws {
        sourceURL = try row.decode(atIndex: 0)
        version = try row.decode(atIndex: 1)
        etag = try row.decode(atIndex: 2)
        fetchedAt = try row.decode(atIndex: 3)
        rawBytes = try row.decode(atIndex: 4)
        signature = try row.decode(atIndex: 5)
        contentHash = try row.decode(atIndex: 6)
    }

    static let insertSQL = """
        INSERT INTO config_snapshots (source_url, version, etag, fetched_at, raw_bytes, signature, content_hash) \
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    var insertArguments: StatementArguments {
        [sourceURL, version, etag, fetchedAt, rawBytes, signature, contentHash]
    }
}
