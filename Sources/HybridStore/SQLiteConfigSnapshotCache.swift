import Foundation
public import HybridConfig

/// The config loader's last-known-good cache in a SQLite file, shaped for app launch: `lastKnownGood` reads
/// through one read-only connection (`HybridDatabase.openForQuickRead`), and the writable database is opened,
/// created or migrated only when a snapshot is saved or the quick read cannot serve (an older schema).
///
/// Same table and semantics as `SQLiteConfigSnapshotStore`, which it uses for every read and write.
public actor SQLiteConfigSnapshotCache: ConfigSnapshotCache {
    /// The database file.
    public let path: String
    private var writable: SQLiteConfigSnapshotStore?

    /// A cache over the database file at `path`; nothing is opened until it is used.
    public init(path: String) {
        self.path = path
    }

    /// The latest snapshot of `source`; nil when there is none or the file does not exist yet.
    public func lastKnownGood(source: String) async throws(ConfigError) -> ConfigSnapshot? {
        if let writable { return try await writable.lastKnownGood(source: source) }
        let quick: HybridDatabase?
        do {
            quick = try HybridDatabase.openForQuickRead(path: path)
        } catch {
            throw .cache(reason: error.description)
        }
        if let quick { return try await SQLiteConfigSnapshotStore(database: quick).lastKnownGood(source: source) }
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try await store().lastKnownGood(source: source)
    }

    /// Saves an accepted config as the latest snapshot of its source (opening the writable database).
    public func save(_ snapshot: ConfigSnapshot) async throws(ConfigError) {
        try await store().save(snapshot)
    }

    /// The source's snapshots, newest version first, at most `limit`.
    public func history(source: String, limit: Int) async throws(ConfigError) -> [ConfigSnapshot] {
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
