import Foundation
import GRDB
import GRDBSQLite

/// One raw read-only SQLite connection for the last-known-good config at app launch, opened, read and closed on the
/// calling thread.
///
/// `HybridDatabase.openForQuickRead` goes through a GRDB `DatabaseQueue`: its dispatch queue, an async hop per read,
/// a `Row` per result and the queue's teardown on close cost about as much as the read itself. This is the same
/// read (same schema check, same query, same values, same errors) through `sqlite3_*` directly, in one transaction.
final class QuickReadConnection {
    let path: String
    private let handle: OpaquePointer

    /// Opens `path` read-only; nil when the file does not exist (nothing is created).
    ///
    /// - Throws: `StoreError.cannotOpen` as `HybridDatabase.openForQuickRead` words it.
    init?(path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map(Self.describe) ?? "\(String(cString: sqlite3_errstr(code))) (SQLite code \(code))"
            sqlite3_close_v2(handle)
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        sqlite3_extended_result_codes(handle, 1)
        // As `HybridDatabase.configuration()`: a writer may hold the lock briefly; wait rather than fail.
        sqlite3_busy_timeout(handle, 10_000)
        self.path = path
        self.handle = handle
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The latest snapshot of `source`; `.olderSchema` when the file lacks a migration this build has (only the
    /// writable opening may upgrade it).
    ///
    /// - Throws: `.schemaTooNew` when a newer build wrote the file, `.cannotOpen` when it is not a database.
    func latestConfigSnapshot(source: String) throws(StoreError) -> QuickRead<ConfigSnapshotRecord?> {
        try execute("BEGIN DEFERRED TRANSACTION")
        defer { try? execute("COMMIT") }
        let applied = try appliedMigrations()
        try HybridDatabase.refuseNewer(applied, path: path)
        guard applied.count == HybridDatabase.migrator.migrations.count else { return .olderSchema }
        let sql = """
            SELECT source_url, version, etag, fetched_at, raw_bytes, signature, content_hash FROM config_snapshots
            WHERE source_url = ? ORDER BY accepted_seq DESC LIMIT 1
            """
        return .read(try query(sql, binding: source) { (columns) throws(StoreError) in try snapshot(columns) })
    }

    /// What a quick read found: the value, or a file too old for this build's query.
    enum QuickRead<Value> {
        case read(Value)
        case olderSchema
    }

    // MARK: - Steps

    /// GRDB's `appliedIdentifiers`: every row of `grdb_migrations`, none when the table does not exist yet.
    private func appliedMigrations() throws(StoreError) -> Set<String> {
        let tables = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'"
        guard try query(tables, binding: nil, row: { $0.int(0) }) == 1 else { return [] }
        var applied = Set<String>()
        _ = try query("SELECT identifier FROM grdb_migrations", binding: nil, all: true) { (columns) throws(StoreError) -> Int in
            if let identifier = columns.string(0) { applied.insert(identifier) }
            return 0
        }
        return applied
    }

    /// The row's values decoded as `ConfigSnapshotRecord(row:)` decodes them (the date through GRDB's own conversion).
    private func snapshot(_ columns: StatementColumns) throws(StoreError) -> ConfigSnapshotRecord {
        let dateValue = DatabaseValue(sqliteStatement: columns.statement, index: 3)
        guard let fetchedAt = Date.fromDatabaseValue(dateValue) else {
            throw StoreError.unreadableRow(path: path, table: "config_snapshots", reason: "fetched_at is not a date: \(dateValue)")
        }
        return ConfigSnapshotRecord(
            sourceURL: columns.string(0) ?? "", version: columns.int(1), etag: columns.string(2), fetchedAt: fetchedAt,
            rawBytes: Self.blob(columns, 4) ?? Data(), signature: Self.blob(columns, 5), contentHash: columns.string(6))
    }

    private static func blob(_ columns: StatementColumns, _ column: Int32) -> Data? {
        if columns.isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(columns.statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(columns.statement, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    // MARK: - Raw SQLite

    private func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure() }
    }

    /// The first row through `row` (every row when `all`), nil when there is none.
    private func query<T>(
        _ sql: String, binding text: String?, all: Bool = false, row: (StatementColumns) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        var statement: SQLiteStatement?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure() }
        defer { sqlite3_finalize(statement) }
        if let text { sqlite3_bind_text(statement, 1, text, -1, sqliteTransient) }
        var first: T?
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                let value = try row(StatementColumns(statement: statement))
                if first == nil { first = value }
                if !all { return first }
            case SQLITE_DONE:
                return first
            default:
                throw failure()
            }
        }
    }

    /// Worded as `HybridDatabase.describe` words GRDB's `DatabaseError`, so both quick reads fail alike.
    private func failure() -> StoreError {
        StoreError.cannotOpen(path: path, reason: Self.describe(handle))
    }

    private static func describe(_ handle: OpaquePointer) -> String {
        "\(String(cString: sqlite3_errmsg(handle))) (SQLite code \(sqlite3_extended_errcode(handle)))"
    }
}
