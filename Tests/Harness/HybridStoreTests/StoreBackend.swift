import Foundation
import HybridCore
@testable import HybridPostgres
@testable import HybridStore
import HybridTestSupport
import HybridTesting
import GRDB
import Testing
import HybridProjectTestSupport

/// The two backends every store test runs against: the embedded SQLite file and a PostgreSQL database on the
/// suite's server (`@Suite(.postgresServer)`), one fresh database per test.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// One backend's stores over a fresh database, and what a test needs beyond the protocols.
    struct Opened: Sendable {
        /// The result store.
        var results: any ResultStore
        /// The config snapshot store over the same database.
        var snapshots: any ConfigSnapshotStore
        /// The spend ledger over the same database.
        var ledger: any SpendLedger
        /// The field event store over the same database.
        var fieldEvents: any FieldEventStore
        /// The path or redacted URL errors name.
        var location: String
        /// A result store over a new connection to the same database, so nothing comes from memory.
        var reopen: @Sendable () async throws -> any ResultStore
        /// A snapshot store over a new connection to the same database.
        var reopenSnapshots: @Sendable () async throws -> any ConfigSnapshotStore
        /// A spend ledger over a new connection to the same database.
        var reopenLedger: @Sendable () async throws -> any SpendLedger
        /// A field event store over a new connection to the same database (as a second collector process has).
        var reopenFieldEvents: @Sendable () async throws -> any FieldEventStore
        /// Runs SQL directly, as a person editing the database by hand would.
        var execute: @Sendable (String) async throws -> Void
        /// The first column of a query's rows, as text.
        var texts: @Sendable (String) async throws -> [String]
    }

    /// Runs `body` with fresh stores and removes the database afterwards.
    func withStores<T>(_ body: (Opened) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            return try await withTemporaryDirectory { directory in
                let path = directory.databasePath
                let database = try HybridDatabase(path: path)
                let opened = Opened(
                    results: SQLiteResultStore(database: database), snapshots: SQLiteConfigSnapshotStore(database: database),
                    ledger: SQLiteSpendLedger(database: database), fieldEvents: SQLiteFieldEventStore(database: database),
                    location: path,
                    reopen: { try SQLiteResultStore(path: path) },
                    reopenSnapshots: { SQLiteConfigSnapshotStore(database: try HybridDatabase(path: path)) },
                    reopenLedger: { SQLiteSpendLedger(database: try HybridDatabase(path: path)) },
                    reopenFieldEvents: { try SQLiteFieldEventStore(path: path) },
                    execute: { sql in try await database.writer.write { db in try db.execute(sql: sql) } },
                    texts: { sql in try await database.writer.read { db in try String.fetchAll(db, sql: sql) } })
                return try await body(opened)
            }
        case .postgres:
            return try await PostgresServerTrait.server().withDatabase { url in
                let database = try await PostgresDatabase(url: url)
                defer { database.close() }
                let opened = Opened(
                    results: PostgresResultStore(database: database), snapshots: PostgresConfigSnapshotStore(database: database),
                    ledger: PostgresSpendLedger(database: database), fieldEvents: PostgresFieldEventStore(database: database),
                    location: database.location,
                    reopen: { PostgresResultStore(database: try await PostgresDatabase(url: url)) },
                    reopenSnapshots: { PostgresConfigSnapshotStore(database: try await PostgresDatabase(url: url)) },
                    reopenLedger: { PostgresSpendLedger(database: try await PostgresDatabase(url: url)) },
                    reopenFieldEvents: { PostgresFieldEventStore(database: try await PostgresDatabase(url: url)) },
                    execute: { sql in try await database.execute(sql) },
                    texts: { sql in try await database.texts(sql) })
                return try await body(opened)
            }
        }
    }

    /// Runs `body` with a fresh result store holding `Fixtures.run()`.
    func withStore<T>(_ body: (any ResultStore, Opened) async throws -> T) async throws -> T {
        try await withStores { opened in
            try await opened.results.createRun(Fixtures.run())
            return try await body(opened.results, opened)
        }
    }
}
