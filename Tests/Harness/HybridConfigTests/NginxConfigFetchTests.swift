import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCurl
import HybridTransport
import HybridProjectTestSupport
import Testing

/// Against Debian's nginx, a server no one here wrote, with its own ETags: 200, then 304, then 200 after a change.
///
/// Never skipped: without nginx the test fails and says how to install it.
@Suite("Config fetch from nginx")
struct NginxConfigFetchTests {
    @Test func etagRoundTrip200Then304Then200() async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        let transport = CurlTransport()
        let file = nginx.root.appendingPathComponent("hybrid.json")
        try Fixtures.config(version: 2).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        try await nginx.waitUntilReady(transport: transport)

        let cache = InMemoryConfigSnapshotCache()
        let loader = ConfigLoader(
            bundled: Fixtures.bundled(), sourceURL: nginx.baseURL + "/hybrid.json", fetcher: ConfigFetcher(transport: transport),
            cache: cache)
        await loader.start()

        let first = await loader.refresh()
        #expect(first.reasonNewOneRejected == nil, "\(String(describing: first.reasonNewOneRejected))")
        #expect(first.outcome == .updated)
        #expect(first.config.version == 2)
        let firstETag = try #require(first.etag, "nginx sends an ETag for static files")

        let second = await loader.refresh()
        #expect(second.outcome == .notModified)
        #expect(second.etag == firstETag)
        #expect(second.config == first.config)

        // nginx's ETag is mtime-size: a longer body and a later mtime both change it.
        try Fixtures.config { tree in
            tree.set(["version"], 3)
            tree.set(["description"], "changed on disk, with a longer description so the size differs")
        }.write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: file.path)

        let third = await loader.refresh()
        #expect(third.outcome == .updated)
        #expect(third.config.version == 3)
        #expect(third.etag != firstETag)
        #expect(try await cache.history(source: nginx.baseURL + "/hybrid.json", limit: 10).map(\.version) == [3, 2])
    }
}
