import Foundation
import GRDB

/// The HybridAI SQLite database: eval runs and results, the response cache, accepted config snapshots and
/// monthly spend counters, in one file (or in memory for tests and previews).
///
/// Opening migrates the schema to the newest version this build knows and refuses files written by a newer build.
/// A file database uses a WAL-mode connection pool, so reports and `--resume` can read while a run writes; every
/// commit is synced (`synchronous=FULL`), so a result the store acknowledged survives `kill -9` and power loss.
/// The database never holds API keys or request headers.
public final class HybridDatabase: Sendable {
    /// The file path, or `:memory:` for an in-memory database.
    public let path: String
    /// The number of schema migrations this build knows; a file with more was written by a newer build.
    public static var knownSchemaVersion: Int { migrator.migrations.count }

    let writer: any DatabaseWriter

    /// Opens (creating it and its directory when missing) the database file at `path` and migrates it.
    ///
    /// - Throws: `StoreError.cannotOpen` when the file cannot be created or is not a SQLite database,
    ///   `.schemaTooNew` when a newer build wrote it, `.migrationFailed` when a migration fails.
    public init(path: String) throws(StoreError) {
        self.path = path
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot create directory \(directory.path): \(error.localizedDescription)")
        }
        do {
            // DatabasePool switches the file to WAL mode itself, and sets its writer to synchronous=NORMAL after
            // `prepareDatabase` ran: set FULL again, or commits are synced only at checkpoints.
            let pool = try DatabasePool(path: path, configuration: Self.configuration())
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            writer = pool
        } catch {
            throw StoreError.cannotOpen(path: path, reason: Self.describe(error))
        }
        try Self.migrate(writer, path: path)
    }

    private init(inMemoryWriter writer: any DatabaseWriter) {
        self.path = ":memory:"
        self.writer = writer
    }

    /// A database over a connection opened elsewhere (the read-only opening in `HybridDatabase+ReadOnly.swift`).
    init(path: String, openedWriter writer: any DatabaseWriter) {
        self.path = path
        self.writer = writer
    }

    /// A fresh, migrated in-memory database that disappears with the last reference to it.
    public static func inMemory() throws(StoreError) -> HybridDatabase {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw StoreError.cannotOpen(path: ":memory:", reason: describe(error))
        }
        try migrate(queue, path: ":memory:")
        return HybridDatabase(inMemoryWriter: queue)
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "HybridStore"
        configuration.foreignKeysEnabled = true
        // Another process (a report, a second eval) may hold the write lock briefly; wait rather than fail.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // FULL syncs the WAL on every commit: an acknowledged result is on disk, not only in the OS cache.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    private static func migrate(_ writer: any DatabaseWriter, path: String) throws(StoreError) {
        // An up-to-date file (every app launch after the first) skips the migrator's write barrier: opening the
        // config cache is on the start-up path.
        if try appliedMigrations(writer, path: path).count == migrator.migrations.count { return }
        // Two processes opening one new file (two `hybrid` commands, a reader beside a writer) can both find a
        // migration pending; the one that loses fails on the table the other just made. It then goes again: the
        // migrator skips what the other applied.
        for attempt in 1...3 {
            do {
                try migrator.migrate(writer)
                return
            } catch {
                let done = (try? appliedMigrations(writer, path: path).count) == migrator.migrations.count
                if done { return }
                if attempt == 3 { throw StoreError.migrationFailed(path: path, reason: describe(error)) }
            }
        }
    }

    /// The migrations the file has applied; `.schemaTooNew` when a newer build wrote it (one this build must not touch).
    static func appliedMigrations(_ reader: any DatabaseReader, path: String) throws(StoreError) -> Set<String> {
        let applied: Set<String>
        do {
            applied = try reader.read { db in try migrator.appliedIdentifiers(db) }
        } catch {
            throw StoreError.cannotOpen(path: path, reason: describe(error))
        }
        try refuseNewer(applied, path: path)
        return applied
    }

    /// `.schemaTooNew` when `applied` names a migration this build does not know (a newer build wrote the file).
    static func refuseNewer(_ applied: Set<String>, path: String) throws(StoreError) {
        if !applied.isSubset(of: Set(migrator.migrations)) {
            let found = applied.compactMap(schemaVersion(ofMigration:)).max() ?? applied.count
            throw StoreError.schemaTooNew(path: path, found: max(found, knownSchemaVersion + 1), known: knownSchemaVersion)
        }
    }

    /// `v3` → 3; nil for names that do not follow the `vN` scheme.
    static func schemaVersion(ofMigration identifier: String) -> Int? {
        guard identifier.first == "v" else { return nil }
        return Int(identifier.dropFirst())
    }

    // MARK: - Access with error mapping

    /// Runs `updates` in a write transaction; any error rolls it back and comes out as a `StoreError`.
    func write<T: Sendable>(_ operation: String, _ updates: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.write(updates)
        } catch {
            throw mapError(error, operation: operation)
        }
    }

    /// Runs `value` in a read transaction (a snapshot: concurrent writes are not seen halfway).
    func read<T: Sendable>(_ operation: String, _ value: @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.read(value)
        } catch {
            throw mapError(error, operation: operation)
        }
    }

    func mapError(_ error: any Error, operation: String) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as RecordDecodingError:
            return .unreadableRow(path: path, table: error.table ?? "?", reason: error.reason)
        case let error as RowDecodingError:
            return .unreadableRow(path: path, table: "?", reason: "\(error)")
        case is CancellationError:
            return .cancelled(path: path, operation: operation)
        default:
            return .operationFailed(path: path, operation: operation, reason: Self.describe(error))
        }
    }

    /// The SQLite message without the SQL text, which is long and says nothing the user can act on.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "\(error.message ?? "SQLite error") (SQLite code \(error.extendedResultCode.rawValue))"
        }
        return "\(error)"
    }
}
