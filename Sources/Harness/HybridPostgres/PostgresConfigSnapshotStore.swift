import Foundation
import HybridCore
public import HybridStore
import HybridConfig

/// The PostgreSQL `ConfigSnapshotStore`: accepted remote configs in `config_snapshots`, shared by every machine.
public final class PostgresConfigSnapshotStore: ConfigSnapshotStore {
    /// The database and its connection pool.
    public let database: PostgresDatabase

    /// A store over an open database (which other stores may share).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    private static let columns = "source_url, version, etag, fetched_at, raw_bytes, signature, content_hash"

    public func saveSnapshot(_ snapshot: ConfigSnapshotRecord) async throws(StoreError) {
        // Delete and insert in one transaction: the new row takes a fresh identity value, which is what makes a
        // re-saved (rolled back) version the latest, as SQLite's REPLACE does.
        _ = try await database.transaction("save config snapshot version \(snapshot.version)") { connection in
            try await connection.query(
                "DELETE FROM config_snapshots WHERE source_url = \(snapshot.sourceURL) AND version = \(snapshot.version)",
                logger: PostgresDatabase.logger)
            try await connection.query(
                """
                INSERT INTO config_snapshots (\(unescaped: Self.columns)) VALUES (\(snapshot.sourceURL), \(snapshot.version), \
                \(snapshot.etag), \(snapshot.fetchedAt.storedPrecision), \(snapshot.rawBytes), \(snapshot.signature), \
                \(snapshot.contentHash))
                """,
                logger: PostgresDatabase.logger)
        }
    }

    public func latestSnapshot(source: String) async throws(StoreError) -> ConfigSnapshotRecord? {
        try await fetch(
            "read latest config snapshot",
            "SELECT \(unescaped: Self.columns) FROM config_snapshots WHERE source_url = \(source) ORDER BY accepted_seq DESC LIMIT 1"
        ).first
    }

    public func snapshot(source: String, version: Int) async throws(StoreError) -> ConfigSnapshotRecord? {
        try await fetch(
            "read config snapshot version \(version)",
            "SELECT \(unescaped: Self.columns) FROM config_snapshots WHERE source_url = \(source) AND version = \(version)"
        ).first
    }

    public func snapshots(source: String) async throws(StoreError) -> [ConfigSnapshotRecord] {
        try await fetch(
            "list config snapshots",
            "SELECT \(unescaped: Self.columns) FROM config_snapshots WHERE source_url = \(source) ORDER BY version DESC")
    }

    private func fetch(_ operation: String, _ query: PostgresQuery) async throws(StoreError) -> [ConfigSnapshotRecord] {
        let rows = try await database.rows(operation, query)
        do {
            return try rows.map { row in
                let cells = row.makeRandomAccess()
                return ConfigSnapshotRecord(
                    sourceURL: try cells["source_url"].decode(String.self),
                    version: try cells["version"].decode(Int.self),
                    etag: try cells["etag"].decode(String?.self),
                    fetchedAt: try cells["fetched_at"].decode(Date.self),
                    rawBytes: try cells["raw_bytes"].decode(Data.self),
                    signature: try cells["signature"].decode(Data?.self),
                    contentHash: try cells["content_hash"].decode(String?.self))
            }
        } catch {
            throw StoreError.unreadableRow(path: database.location, table: "config_snapshots", reason: "\(error)")
        }
    }
}
extension PostgresConfigSnapshotStore: ConfigSnapshotCache {}
