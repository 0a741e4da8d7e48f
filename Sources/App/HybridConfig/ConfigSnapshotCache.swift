/// Where the loader keeps the last-known-good config between launches.
///
/// The SQLite store implements this in the app; `InMemoryConfigSnapshotCache` serves tests and tools.
/// Only payloads that passed validation (and signature checks) are saved.
package protocol ConfigSnapshotCache: Sendable {
    /// The most recently saved snapshot for `source`, or nil.
    func lastKnownGood(source: String) async throws(ConfigError) -> ConfigSnapshot?
    /// Records an accepted snapshot; it becomes the last-known-good for its source.
    func save(_ snapshot: ConfigSnapshot) async throws(ConfigError)
    /// Saved snapshots for `source`, newest first, at most `limit`.
    func history(source: String, limit: Int) async throws(ConfigError) -> [ConfigSnapshot]
}
