import Foundation
package import HybridConfig

/// The SQLite snapshot table serves as the config loader's last-known-good cache.
extension SQLiteConfigSnapshotStore: ConfigSnapshotCache {}

/// Any snapshot store serves as the config loader's last-known-good cache (SQLite's here, PostgreSQL's in
/// `HybridPostgres`): these are the `ConfigSnapshotCache` methods, built on the store's own.
///
/// Signatures travel base64 in `ConfigSnapshot` and as bytes in the table; the conversion is lossless.
extension ConfigSnapshotStore {
    /// The latest snapshot of `source` as the loader's last-known-good config.
    package func lastKnownGood(source: String) async throws(ConfigError) -> ConfigSnapshot? {
        do {
            return try await latestSnapshot(source: source).map(Self.snapshot(from:))
        } catch {
            throw .cache(reason: error.description)
        }
    }

    /// Saves an accepted config as the latest snapshot of its source.
    package func save(_ snapshot: ConfigSnapshot) async throws(ConfigError) {
        let record = ConfigSnapshotRecord(
            sourceURL: snapshot.source, version: snapshot.version, etag: snapshot.etag, fetchedAt: snapshot.fetchedAt,
            rawBytes: snapshot.body, signature: snapshot.signature.flatMap { Data(base64Encoded: $0) })
        do {
            try await saveSnapshot(record)
        } catch {
            throw .cache(reason: error.description)
        }
    }

    /// The source's snapshots, newest version first, at most `limit`.
    package func history(source: String, limit: Int) async throws(ConfigError) -> [ConfigSnapshot] {
        do {
            return try await snapshots(source: source).prefix(limit).map(Self.snapshot(from:))
        } catch {
            throw .cache(reason: error.description)
        }
    }

    /// The loader's view of a stored row.
    static func snapshot(from record: ConfigSnapshotRecord) -> ConfigSnapshot {
        ConfigSnapshot(
            source: record.sourceURL, body: record.rawBytes, etag: record.etag, version: record.version,
            fetchedAt: record.fetchedAt, signature: record.signature?.base64EncodedString())
    }
}
