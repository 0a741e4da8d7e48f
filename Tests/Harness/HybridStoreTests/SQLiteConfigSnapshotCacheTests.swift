import Foundation
import GRDB
import HybridConfig
import HybridTestSupport
import Testing
@testable import HybridStore

/// The app-launch cache: a quick read-only read of the last-known-good config, the writable database only to save.
@Suite("SQLiteConfigSnapshotCache")
struct SQLiteConfigSnapshotCacheTests {
    static let source = "https://config.example.com/hybrid.json"

    static func snapshot(_ version: Int) -> ConfigSnapshot {
        ConfigSnapshot(
            source: source, body: Data("{\"version\": \(version)}".utf8), etag: "\"v\(version)\"", version: version,
            fetchedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(version)), signature: Data([1, 2, 3]).base64EncodedString())
    }

    @Test("a missing file reads as no snapshot and is not created by reading")
    func missingFile() async throws {
        try await withTemporaryDirectory { directory in
            let quick = try HybridDatabase.openForQuickRead(path: directory.databasePath)
            let read = try await SQLiteConfigSnapshotCache(path: directory.databasePath).lastKnownGood(source: Self.source)
            #expect(quick == nil)
            #expect(read == nil)
            #expect(!FileManager.default.fileExists(atPath: directory.databasePath))
        }
    }

    @Test("a saved snapshot reads back exactly through a fresh cache's read-only connection")
    func savesThenReadsBackQuickly() async throws {
        try await withTemporaryDirectory { directory in
            try await SQLiteConfigSnapshotCache(path: directory.databasePath).save(Self.snapshot(3))
            try await SQLiteConfigSnapshotCache(path: directory.databasePath).save(Self.snapshot(4))
            let read = try await SQLiteConfigSnapshotCache(path: directory.databasePath).lastKnownGood(source: Self.source)
            #expect(read == Self.snapshot(4))
            let history = try await SQLiteConfigSnapshotCache(path: directory.databasePath).history(source: Self.source, limit: 5)
            #expect(history.map(\.version) == [4, 3])
            // The same rows as the store over a fully opened database.
            let store = SQLiteConfigSnapshotStore(database: try HybridDatabase(path: directory.databasePath))
            let viaStore = try await store.lastKnownGood(source: Self.source)
            #expect(viaStore == read)
        }
    }

    @Test("the quick reader cannot write, and a cache that saved reads its own write")
    func quickReaderIsReadOnly() async throws {
        try await withTemporaryDirectory { directory in
            let cache = SQLiteConfigSnapshotCache(path: directory.databasePath)
            try await cache.save(Self.snapshot(1))
            let quick = try #require(try HybridDatabase.openForQuickRead(path: directory.databasePath))
            #expect(quick.writer is DatabaseQueue)
            await #expect(throws: (any Error).self) {
                try await quick.writer.write { db in try db.execute(sql: "DELETE FROM config_snapshots") }
            }
            try await cache.save(Self.snapshot(2))
            let latest = try await cache.lastKnownGood(source: Self.source)
            #expect(latest?.version == 2)
        }
    }

    @Test("an older schema is left to the writable opening, which migrates it; a newer one is refused")
    func schemaVersions() async throws {
        let known = HybridDatabase.knownSchemaVersion
        try await withTemporaryDirectory { directory in
            let path = directory.databasePath
            do {
                // A file from the build before the newest migration.
                let older = try DatabaseQueue(path: path)
                try HybridDatabase.migrator.migrate(older, upTo: SchemaMigration.all[known - 2].version)
            }
            let beforeMigration = try HybridDatabase.openForQuickRead(path: path)
            #expect(beforeMigration == nil)
            let read = try await SQLiteConfigSnapshotCache(path: path).lastKnownGood(source: Self.source)
            #expect(read == nil)
            let afterMigration = try HybridDatabase.openForQuickRead(path: path)
            #expect(afterMigration != nil)
            try await HybridDatabase(path: path).writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v\(known + 1)')")
            }
            #expect(throws: StoreError.schemaTooNew(path: path, found: known + 1, known: known)) {
                try HybridDatabase.openForQuickRead(path: path)
            }
        }
    }

    @Test("the raw quick read refuses what the GRDB quick read refused, with the same words")
    func rawQuickReadFailsAsBefore() async throws {
        let known = HybridDatabase.knownSchemaVersion
        try await withTemporaryDirectory { directory in
            let path = directory.databasePath
            try await SQLiteConfigSnapshotCache(path: path).save(Self.snapshot(1))
            try await HybridDatabase(path: path).writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v\(known + 1)')")
            }
            let newer = StoreError.schemaTooNew(path: path, found: known + 1, known: known)
            await #expect(throws: ConfigError.cache(reason: newer.description)) {
                try await SQLiteConfigSnapshotCache(path: path).lastKnownGood(source: Self.source)
            }
            let junk = directory.url.appendingPathComponent("junk.sqlite").path
            try Data(String(repeating: "not a database, only text. ", count: 40).utf8).write(to: URL(fileURLWithPath: junk))
            let grdbError = #expect(throws: StoreError.self) { try HybridDatabase.openForQuickRead(path: junk) }
            let grdbWording = try #require(grdbError).description
            await #expect(throws: ConfigError.cache(reason: grdbWording)) {
                try await SQLiteConfigSnapshotCache(path: junk).lastKnownGood(source: Self.source)
            }
        }
    }

    @Test("the raw quick read gives what the store gives: the latest of several sources and versions, nil for another source")
    func rawQuickReadMatchesStore() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.databasePath
            let cache = SQLiteConfigSnapshotCache(path: path)
            let other = ConfigSnapshot(source: "file:///other.json", body: Data("{}".utf8), etag: nil, version: 9, fetchedAt: Date(), signature: nil)
            for snapshot in [Self.snapshot(5), other, Self.snapshot(7), Self.snapshot(6)] { try await cache.save(snapshot) }
            let store = SQLiteConfigSnapshotStore(database: try HybridDatabase(path: path))
            for source in [Self.source, other.source, "https://nowhere.example/x.json"] {
                let quick = try await SQLiteConfigSnapshotCache(path: path).lastKnownGood(source: source)
                #expect(quick == (try await store.lastKnownGood(source: source)))
            }
            #expect(try await SQLiteConfigSnapshotCache(path: path).lastKnownGood(source: Self.source)?.version == 6)
        }
    }

    @Test("the writer connection of a file database syncs every commit (synchronous FULL)")
    func writerIsSynchronousFull() async throws {
        try await withTemporaryDirectory { directory in
            let database = try HybridDatabase(path: directory.databasePath)
            let synchronous = try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
            #expect(synchronous == 2)
        }
    }
}
