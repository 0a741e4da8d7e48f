import GRDB

/// The SQLite `ConfigSnapshotStore`, over the `config_snapshots` table of a `HybridDatabase`.
public final class SQLiteConfigSnapshotStore: ConfigSnapshotStore {
    /// The database holding the `config_snapshots` table.
    public let database: HybridDatabase

    /// A snapshot store over an open database (usually the one the result store uses).
    public init(database: HybridDatabase) {
        self.database = database
    }

    public func saveSnapshot(_ snapshot: ConfigSnapshotRecord) async throws(StoreError) {
        try await database.write("save config snapshot version \(snapshot.version)") { db in
            // REPLACE deletes the older copy of this (source, version) and inserts a new row with a fresh
            // AUTOINCREMENT sequence number, which is what makes the saved snapshot the latest.
            try Stored(snapshot).insert(db, onConflict: .replace)
        }
    }

    public func latestSnapshot(source: String) async throws(StoreError) -> ConfigSnapshotRecord? {
        try await database.read("read latest config snapshot") { db in
            try Stored<ConfigSnapshotRecord>.fetchOne(
                db,
                sql: "SELECT * FROM config_snapshots WHERE source_url = ? ORDER BY accepted_seq DESC LIMIT 1",
                arguments: [source]
            )?.value
        }
    }

    public func snapshot(source: String, version: Int) async throws(StoreError) -> ConfigSnapshotRecord? {
        try await database.read("read config snapshot version \(version)") { db in
            try Stored<ConfigSnapshotRecord>.fetchOne(
                db,
                sql: "SELECT * FROM config_snapshots WHERE source_url = ? AND version = ?",
                arguments: [source, version]
            )?.value
        }
    }

    public func snapshots(source: String) async throws(StoreError) -> [ConfigSnapshotRecord] {
        try await database.read("list config snapshots") { db in
            try Stored<ConfigSnapshotRecord>.fetchAll(
                db,
                sql: "SELECT * FROM config_snapshots WHERE source_url = ? ORDER BY version DESC",
                arguments: [source]
            ).map(\.value)
        }
    }
}
