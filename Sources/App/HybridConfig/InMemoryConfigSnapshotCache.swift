/// A `ConfigSnapshotCache` that lives in memory: lost at exit.
package actor InMemoryConfigSnapshotCache: ConfigSnapshotCache {
    private var snapshots: [ConfigSnapshot] = []

    /// Creates a cache seeded with `snapshots`, oldest first.
    package init(_ snapshots: [ConfigSnapshot] = []) {
        self.snapshots = snapshots
    }

    package func lastKnownGood(source: String) async throws(ConfigError) -> ConfigSnapshot? {
        snapshots.last { $0.source == source }
    }

    package func save(_ snapshot: ConfigSnapshot) async throws(ConfigError) {
        snapshots.append(snapshot)
    }

    package func history(source: String, limit: Int) async throws(ConfigError) -> [ConfigSnapshot] {
        Array(snapshots.filter { $0.source == source }.reversed().prefix(max(0, limit)))
    }
}
