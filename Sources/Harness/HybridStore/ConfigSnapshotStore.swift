/// History of accepted remote configs, for offline start-up (last known good) and `config rollback VERSION`.
public protocol ConfigSnapshotStore: Sendable {
    /// Saves an accepted config and makes it the latest for its source. Saving a version that is already stored
    /// replaces that copy (new ETag, fetch time, bytes), which is how a rollback is recorded.
    func saveSnapshot(_ snapshot: ConfigSnapshotRecord) async throws(StoreError)
    /// The most recently saved snapshot of the source: the last known good config. Nil when none was saved.
    func latestSnapshot(source: String) async throws(StoreError) -> ConfigSnapshotRecord?
    /// The snapshot of the source with this version, or nil.
    func snapshot(source: String, version: Int) async throws(StoreError) -> ConfigSnapshotRecord?
    /// Every snapshot of the source, highest version first.
    func snapshots(source: String) async throws(StoreError) -> [ConfigSnapshotRecord]
}
