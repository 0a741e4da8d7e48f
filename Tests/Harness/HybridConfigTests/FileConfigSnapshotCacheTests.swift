import Foundation
@testable import HybridConfig
import HybridConfigTools
@testable import HybridCore
import HybridTestSupport
import Testing

@Suite("FileConfigSnapshotCache")
struct FileConfigSnapshotCacheTests {
    static let source = "https://config.example.com/hybrid.json"

    static func snapshot(_ version: Int, source: String = source) -> ConfigSnapshot {
        ConfigSnapshot(
            source: source, body: Data("{\"version\":\(version)}\n".utf8), etag: "\"v\(version)\"", version: version,
            fetchedAt: Date(timeIntervalSince1970: 1_750_000_000.125 + Double(version)), signature: version.isMultiple(of: 2) ? "c2ln" : nil)
    }

    @Test("snapshots survive a relaunch byte for byte; history is newest first and bounded per source")
    func survivesRelaunch() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("Application Support/HybridAI/config-cache.json")
            let cache = FileConfigSnapshotCache(url: url, keep: 3)
            for version in 1...5 { try await cache.save(Self.snapshot(version)) }
            try await cache.save(Self.snapshot(9, source: "file:///other.json"))
            try await cache.save(Self.snapshot(4))  // a rollback re-saves an old version: it becomes the newest

            let relaunched = FileConfigSnapshotCache(url: url, keep: 3)
            #expect(try await relaunched.lastKnownGood(source: Self.source) == Self.snapshot(4))
            #expect(try await relaunched.history(source: Self.source, limit: 10).map(\.version) == [4, 5, 3])
            #expect(try await relaunched.lastKnownGood(source: "file:///other.json") == Self.snapshot(9, source: "file:///other.json"))
            #expect(try await relaunched.lastKnownGood(source: "https://unknown.example.com") == nil)
        }
    }

    @Test("a crash mid-save (truncated temporary file, never renamed) keeps the previous last-known-good")
    func tornWriteKeepsPrevious() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("config-cache.json")
            try await FileConfigSnapshotCache(url: url).save(Self.snapshot(1))
            let torn = directory.url.appendingPathComponent(AtomicFile.temporaryPrefix(for: url) + "crashed")
            try Data("{\"snapshots\":[{\"body\":\"eyJ2".utf8).write(to: torn)

            let relaunched = FileConfigSnapshotCache(url: url)
            #expect(try await relaunched.lastKnownGood(source: Self.source) == Self.snapshot(1))
            #expect(!FileManager.default.fileExists(atPath: torn.path))
            try await relaunched.save(Self.snapshot(2))
            #expect(try await FileConfigSnapshotCache(url: url).lastKnownGood(source: Self.source)?.version == 2)
        }
    }

    @Test("the loader falls back to the bundled defaults, with the reason, when the cache file is damaged")
    func damagedFileFallsBackToBundled() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("config-cache.json")
            try Data("not json".utf8).write(to: url)
            let loader = try ConfigLoader.withBundledDefaults(sourceURL: Self.source, fetcher: nil, cache: FileConfigSnapshotCache(url: url))
            let resolution = await loader.start()
            #expect(resolution.source == .bundled)
            #expect(resolution.cacheError?.description.contains(url.path) == true)
        }
    }
}
