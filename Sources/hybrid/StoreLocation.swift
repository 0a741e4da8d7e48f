import Foundation
import HybridConfig
import HybridCore
import HybridPostgres
import HybridStore

/// Opens the stores `--db` (or `HYBRID_DB_URL`) names: a SQLite file, the embedded default, or a shared
/// PostgreSQL database for `postgres://` URLs. One connection pool per URL per process.
enum StoreLocation {
    /// True when `location` names PostgreSQL.
    static func isPostgres(_ location: String) -> Bool { PostgresConnectionURL.isPostgres(location) }

    /// The result store at `location`.
    static func results(_ location: String) async throws -> any ResultStore {
        if isPostgres(location) { return PostgresResultStore(database: try await PostgresPools.shared.database(location)) }
        return try SQLiteResultStore(path: location)
    }

    /// The work queue `hybrid eval --worker` drains: PostgreSQL only, since workers run on many machines.
    static func queue(_ location: String) async throws -> any WorkQueue {
        guard isPostgres(location) else {
            throw CLIError("--worker needs a shared database: --db postgres://USER@HOST:PORT/DATABASE (or HYBRID_DB_URL); \(location) is a SQLite file")
        }
        return PostgresResultStore(database: try await PostgresPools.shared.database(location))
    }

    /// The config snapshot store at `location`, which is also the config loader's last-known-good cache.
    static func snapshots(_ location: String) async throws -> any ConfigSnapshotStore & ConfigSnapshotCache {
        if isPostgres(location) { return PostgresConfigSnapshotStore(database: try await PostgresPools.shared.database(location)) }
        return SQLiteConfigSnapshotStore(database: try HybridDatabase(path: location))
    }

    /// The config loader's last-known-good cache at `location`. A SQLite file is read at start-up through one raw
    /// read-only connection (`SQLiteConfigSnapshotCache`); the full database is opened only to save a new config.
    static func configCache(_ location: String) async throws -> any ConfigSnapshotCache {
        if isPostgres(location) { return try await snapshots(location) }
        return SQLiteConfigSnapshotCache(path: location)
    }
}

/// The open PostgreSQL databases of this process, by URL, so commands that open several stores share one pool.
actor PostgresPools {
    static let shared = PostgresPools()
    private var open: [String: PostgresDatabase] = [:]

    func database(_ url: String) async throws -> PostgresDatabase {
        if let database = open[url] { return database }
        let database = try await PostgresDatabase(url: url)
        open[url] = database
        return database
    }
}
