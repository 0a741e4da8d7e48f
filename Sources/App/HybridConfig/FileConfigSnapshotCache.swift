import Foundation
import HybridCore

/// A `ConfigSnapshotCache` in one JSON file: the last-known-good config survives relaunches without SQLite (for
/// example in Application Support).
///
/// Every `save` rewrites the file atomically (temporary file, `fsync`, rename), so a crash mid-save leaves the
/// previous last-known-good in place. Keeps the newest `keep` snapshots per source. One process owns the file.
actor FileConfigSnapshotCache: ConfigSnapshotCache {
    /// The JSON file.
    nonisolated let url: URL
    /// How many snapshots per source are kept (newest first); older ones are dropped on save.
    nonisolated let keep: Int
    private var snapshots: [ConfigSnapshot]?

    /// A cache over `url`; nothing is read or created until the first call.
    init(url: URL, keep: Int = 10) {
        self.url = url
        self.keep = max(1, keep)
    }

    func lastKnownGood(source: String) async throws(ConfigError) -> ConfigSnapshot? {
        try loaded().last { $0.source == source }
    }

    func save(_ snapshot: ConfigSnapshot) async throws(ConfigError) {
        var updated = try loaded()
        // Re-saving a version makes it the newest again (a rollback republishes an old version's bytes).
        updated.removeAll { $0.source == snapshot.source && $0.version == snapshot.version }
        updated.append(snapshot)
        let ofSource = updated.filter { $0.source == snapshot.source }
        if ofSource.count > keep {
            let dropped = Set(ofSource.prefix(ofSource.count - keep).map(\.version))
            updated.removeAll { $0.source == snapshot.source && dropped.contains($0.version) }
        }
        try persist(updated)
        snapshots = updated
    }

    func history(source: String, limit: Int) async throws(ConfigError) -> [ConfigSnapshot] {
        Array(try loaded().filter { $0.source == source }.reversed().prefix(max(0, limit)))
    }

    /// The file's version 1 layout; bodies are base64 so the signed bytes survive exactly.
    private struct FileContents: Codable {
        var version = 1
        var snapshots: [Entry]
    }

    private struct Entry: Codable {
        var source: String
        var body: Data
        var etag: String?
        var version: Int
        var fetchedAt: Date
        var signature: String?
    }

    private func loaded() throws(ConfigError) -> [ConfigSnapshot] {
        if let snapshots { return snapshots }
        let contents: FileContents?
        do {
            contents = try AtomicFile.readJSON(FileContents.self, from: url)
        } catch {
            throw .cache(reason: error.description)
        }
        let loaded = contents?.snapshots.map {
            ConfigSnapshot(source: $0.source, body: $0.body, etag: $0.etag, version: $0.version, fetchedAt: $0.fetchedAt, signature: $0.signature)
        } ?? []
        snapshots = loaded
        return loaded
    }

    private func persist(_ snapshots: [ConfigSnapshot]) throws(ConfigError) {
        let entries = snapshots.map {
            Entry(source: $0.source, body: $0.body, etag: $0.etag, version: $0.version, fetchedAt: $0.fetchedAt, signature: $0.signature)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try AtomicFile.writeJSON(FileContents(snapshots: entries), to: url, encoder: encoder)
        } catch {
            throw .cache(reason: error.description)
        }
    }
}
