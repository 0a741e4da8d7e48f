import Foundation
import GRDB
import HybridTestSupport
import Testing
@testable import HybridStore

@Suite("HybridDatabase")
struct HybridDatabaseTests {
    static let tables: Set<String> = [
        "runs", "results", "response_cache", "config_snapshots", "spend", "result_constraints", "result_scores",
        "field_events", "result_measures", "run_configs", "field_looks", "rollouts", "pairwise_verdicts",
    ]

    private func userTables(_ database: HybridDatabase) async throws -> Set<String> {
        try await database.writer.read { db in
            try String.fetchSet(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'"
            )
        }
    }

    @Test("a fresh file gets the whole schema, and reopening applies no migration twice")
    func migrationsCreateSchemaAndAreIdempotent() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let database = try HybridDatabase(path: directory.databasePath)
                #expect(try await userTables(database) == Self.tables)
                try await SQLiteResultStore(database: database).createRun(Fixtures.run())
            }
            #expect(FileManager.default.fileExists(atPath: directory.databasePath))
            let reopened = try HybridDatabase(path: directory.databasePath)
            #expect(try await userTables(reopened) == Self.tables)
            let applied = try await reopened.writer.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            #expect(applied == SchemaMigration.all.map(\.version))
            #expect(HybridDatabase.knownSchemaVersion == SchemaMigration.all.count)
            // Reopening kept the data written before.
            #expect(try await SQLiteResultStore(database: reopened).run(id: "run-1") == Fixtures.run())
        }
    }

    @Test("a missing parent directory is created")
    func createsParentDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("a/b/hybrid.sqlite").path
            _ = try HybridDatabase(path: path)
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("file databases run in WAL mode with foreign keys on and synchronous FULL")
    func walModeAndPragmas() async throws {
        try await withTemporaryDirectory { directory in
            let database = try HybridDatabase(path: directory.databasePath)
            let (journal, foreignKeys, synchronous) = try await database.writer.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                    try Int.fetchOne(db, sql: "PRAGMA foreign_keys"),
                    try Int.fetchOne(db, sql: "PRAGMA synchronous")
                )
            }
            #expect(journal == "wal")
            #expect(foreignKeys == 1)
            #expect(synchronous == 2)
            #expect(database.writer is DatabasePool)
        }
    }

    @Test("in-memory databases are migrated and isolated from each other")
    func inMemory() async throws {
        let first = try HybridDatabase.inMemory()
        let second = try HybridDatabase.inMemory()
        #expect(first.path == ":memory:")
        #expect(try await userTables(first) == Self.tables)
        try await SQLiteResultStore(database: first).createRun(Fixtures.run())
        #expect(try await SQLiteResultStore(database: second).runs().isEmpty)
        #expect(try await SQLiteResultStore(database: first).runs().count == 1)
    }

    @Test("a database written by a newer build is refused with both schema versions in the message")
    func refusesNewerSchema() async throws {
        let known = HybridDatabase.knownSchemaVersion
        try await withTemporaryDirectory { directory in
            do {
                let database = try HybridDatabase(path: directory.databasePath)
                try await database.writer.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v\(known + 1)'), ('v\(known + 2)')")
                }
            }
            #expect(throws: StoreError.schemaTooNew(path: directory.databasePath, found: known + 2, known: known)) {
                try HybridDatabase(path: directory.databasePath)
            }
            let message = StoreError.schemaTooNew(path: directory.databasePath, found: known + 2, known: known).description
            #expect(message.contains(
                "database at \(directory.databasePath) has schema version \(known + 2) newer than this build knows (\(known))"))
        }
    }

    @Test("a file that is not a SQLite database is refused with its path")
    func refusesGarbageFile() async throws {
        try await withTemporaryDirectory { directory in
            try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: directory.databasePath))
            let error = #expect(throws: StoreError.self) { try HybridDatabase(path: directory.databasePath) }
            guard case .cannotOpen(let path, _) = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(path == directory.databasePath)
            #expect(error?.description.hasPrefix("cannot open database at \(directory.databasePath): ") == true)
        }
    }

    @Test("streaming and resume queries use the indexes: no table scan, no sort")
    func queriesUseIndexes() async throws {
        let database = try HybridDatabase.inMemory()
        let plans = try await database.writer.read { db in
            let plan: (String) throws -> String = { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
            }
            return (
                stream: try plan("SELECT * FROM results WHERE run_id = 'r' AND id > 0 ORDER BY id LIMIT 1000"),
                keys: try plan("SELECT case_id, arm_id, repeat_index FROM results WHERE run_id = 'r'"),
                latest: try plan("SELECT * FROM config_snapshots WHERE source_url = 's' ORDER BY accepted_seq DESC LIMIT 1")
            )
        }
        #expect(plans.stream.contains("USING INDEX results_by_run"), "\(plans.stream)")
        #expect(!plans.stream.contains("TEMP B-TREE"), "\(plans.stream)")
        #expect(plans.keys.contains("COVERING INDEX"), "\(plans.keys)")
        #expect(!plans.latest.contains("TEMP B-TREE"), "\(plans.latest)")
    }
}
