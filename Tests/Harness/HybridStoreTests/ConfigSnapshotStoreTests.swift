import Foundation
import HybridTestSupport
import HybridTesting
import Testing
@testable import HybridStore
import HybridProjectTestSupport

/// The `ConfigSnapshotStore` contract on every backend (`StoreBackend`).
@Suite("ConfigSnapshotStore conformance", .postgresServer)
struct ConfigSnapshotStoreTests {
    static let source = "https://config.example.com/hybrid.json"

    static func snapshot(_ version: Int, source: String = source, etag: String? = nil) -> ConfigSnapshotRecord {
        ConfigSnapshotRecord(
            sourceURL: source,
            version: version,
            etag: etag ?? "\"etag-\(version)\"",
            fetchedAt: Fixtures.date.addingTimeInterval(Double(version)),
            rawBytes: Data("{\"version\": \(version)}".utf8),
            signature: version.isMultiple(of: 2) ? Data([0, 1, 2, 255]) : nil,
            contentHash: "sha256:\(version)"
        )
    }

    @Test("snapshots list by version, latest is the last saved, and each version reads back exactly", arguments: StoreBackend.allCases)
    func orderingAndLookup(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            let store = opened.snapshots
            #expect(try await store.latestSnapshot(source: Self.source) == nil)
            for version in [1, 10, 3, 2] {
                try await store.saveSnapshot(Self.snapshot(version))
            }
            try await store.saveSnapshot(Self.snapshot(50, source: "file:///etc/hybrid.json"))

            #expect(try await store.snapshots(source: Self.source).map(\.version) == [10, 3, 2, 1])
            #expect(try await store.latestSnapshot(source: Self.source) == Self.snapshot(2))
            #expect(try await store.snapshot(source: Self.source, version: 10) == Self.snapshot(10))
            #expect(try await store.snapshot(source: Self.source, version: 4) == nil)
            #expect(try await store.latestSnapshot(source: "file:///etc/hybrid.json")?.version == 50)
        }
    }

    @Test("saving a stored version again replaces it and makes it the latest (rollback)", arguments: StoreBackend.allCases)
    func resaveMakesLatest(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            do {
                let store = opened.snapshots
                for version in 1...3 { try await store.saveSnapshot(Self.snapshot(version)) }
                try await store.saveSnapshot(Self.snapshot(1, etag: "\"rolled-back\""))
            }
            // Survives reopening: this is what an app starting offline reads.
            let store = try await opened.reopenSnapshots()
            let latest = try #require(try await store.latestSnapshot(source: Self.source))
            #expect(latest.version == 1)
            #expect(latest.etag == "\"rolled-back\"")
            #expect(try await store.snapshots(source: Self.source).map(\.version) == [3, 2, 1])
        }
    }
}
