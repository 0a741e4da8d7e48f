import Foundation
public import HybridConfig

/// The config loader's last-known-good cache in a SQLite file, shaped for app launch: `lastKnownGood` reads
/// through one raw read-only connection (`QuickReadConnection`), and the writable database is opened,
/// created or migrated only when a snapshot is saved or the quick read cannot serve (an older schema).
///
/// Same table and semantics as `SQLiteConfigSnapshotStore`, which it uses for every write and every read after one.
public actor SQLiteConfigSnapshotCache: ConfigSnapshotCache {
    /// The database file.
    public let path: String
    private var writable: SQLiteConfigSnapshotStore?

    /// A cache over the database file at `path`; nothing is opened until it is used.
    public init(path: String) {
        self.path = path
    }

    /// The latest snapshot of `source`; nil when there is none or the file does not exist yet.
    ///
    /// Until this cache has saved, the read goes through a raw read-only connection on the calling thread
    /// (`QuickReadConnection`), closed before returning; a file from an older build goes to the writable opening,
    /// which migrates it.
    package func lastKnownGood(source: String) async throws(ConfigError) -> ConfigSnapshot? {
        if let writable { return try await writable.lastKnownGood(source: source) }
        let read: QuickReadConnection.QuickRead<ConfigSnapshotRecord?>
        do {
            guard let connection = try QuickReadConnection(path: path) else { return nil }
            read = try connection.latestConfigSnapshot(source: source)
        } catch {
            throw .cache(reason: error.description)
        }
        switch read {
        case .read(let record): return record.map(SQLiteConfigSnapshotStore.snapshot(from:))
        case .olderSchema: return try await store().lastKnownGood(source: source)
        }
    }

    /// Saves an accepted config as the latest snapshot of its source (opening the writable database).
    package func save(_ snapshot: ConfigSnapshot) async throws(ConfigError) {
        try await store().save(snapshot)
    }

    /// The source's snapshots, newest version first, at most `limit`.
    package func history(source: String, limit: Int) async throws(ConfigError) -> [ConfigSnapshot] {
        try await store().history(source: source, limit: limit)
    }

    private func store() throws(ConfigError) -> SQLiteConfigSnapshotStore {
        if let writable { return writable }
        do {
            let store = SQLiteConfigSnapshotStore(database: try HybridDatabase(path: path))
            writable = store
            return store
        } catch {
            throw .cache(reason: error.description)
        }
    }
}
