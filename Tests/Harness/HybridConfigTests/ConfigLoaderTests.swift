import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import HybridTransport
import Testing

@Suite("Config loader precedence")
struct ConfigLoaderTests {
    static let url = "https://config.example.test/hybrid.json"

    func loader(
        _ server: ConfigServerState,
        cache: any ConfigSnapshotCache = InMemoryConfigSnapshotCache(),
        verifier: ConfigSignatureVerifier? = nil,
        options: ConfigLoader.Options = ConfigLoader.Options()
    ) -> (ConfigLoader, FakeTransport) {
        let transport = FakeTransport { request in server.reply(to: request) }
        let loader = ConfigLoader(
            bundled: Fixtures.bundled(), sourceURL: Self.url, fetcher: ConfigFetcher(transport: transport), cache: cache,
            verifier: verifier, options: options)
        return (loader, transport)
    }

    @Test("a config offered by the app (a push) is validated and versioned like a fetched one")
    func offeredBodyIsCheckedLikeAFetchedOne() async {
        let (loader, transport) = loader(ConfigServerState())
        _ = await loader.start()
        let applied = await loader.offer(Fixtures.config(version: 99), source: "push")
        #expect(applied.config.version == 99 && applied.reasonNewOneRejected == nil)
        let older = await loader.offer(Fixtures.config(version: 98), source: "push")
        #expect(older.config.version == 99 && older.reasonNewOneRejected?.kind == .versionRollback)
        let broken = await loader.offer(Data("{".utf8), source: "push")
        #expect(broken.config.version == 99 && broken.reasonNewOneRejected?.kind == .notJSON)
        #expect(transport.requests.isEmpty)
    }

    @Test func bundledDefaultsWithoutCacheOrNetwork() async {
        let (loader, _) = loader(ConfigServerState())
        let resolution = await loader.start()
        #expect(resolution.source == .bundled)
        #expect(resolution.config == Fixtures.bundled().document)
        #expect(resolution.reasonNewOneRejected == nil)
    }

    @Test func validRemoteWinsAndBecomesLastKnownGood() async throws {
        let server = ConfigServerState()
        server.serve(Fixtures.config(version: 2))
        let cache = InMemoryConfigSnapshotCache()
        let (loader, _) = loader(server, cache: cache)
        await loader.start()
        let resolution = await loader.refresh()
        #expect(resolution.source == .remote(url: Self.url))
        #expect(resolution.outcome == .updated)
        #expect(resolution.config.version == 2)
        let saved = try #require(try await cache.lastKnownGood(source: Self.url))
        #expect(saved.version == 2)
        #expect(saved.etag == resolution.etag)
        #expect(saved.body == Fixtures.config(version: 2))

        // Next launch, offline: the cached copy beats the bundled defaults.
        let (offline, _) = self.loader(ConfigServerState(), cache: cache)
        let restarted = await offline.start()
        #expect(restarted.source == .lastKnownGood(url: Self.url))
        #expect(restarted.config.version == 2)
        #expect(restarted.etag == saved.etag)
    }

    @Test func notModifiedKeepsTheCurrentConfigAndSendsTheETag() async throws {
        let server = ConfigServerState()
        server.serve(Fixtures.config(version: 2))
        let (loader, transport) = loader(server)
        let first = await loader.refresh()
        let second = await loader.refresh()
        #expect(second.outcome == .notModified)
        #expect(second.config == first.config)
        #expect(second.source == .remote(url: Self.url))
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].headers["If-None-Match"] == nil)
        #expect(transport.requests[1].headers["If-None-Match"] == first.etag)
    }

    @Test func invalidRemoteKeepsCurrentWithPreciseReason() async throws {
        let server = ConfigServerState()
        server.serve(Fixtures.config(version: 2))
        let (loader, _) = loader(server)
        let good = await loader.refresh()
        server.serve(Fixtures.config { tree in
            tree.set(["version"], 3)
            tree.set(["features", "summarize", "priority", 2], "gpt-5")
        })
        let resolution = await loader.refresh()
        #expect(resolution.outcome == .rejected)
        #expect(resolution.config == good.config)
        #expect(resolution.etag == good.etag)
        #expect(resolution.reasonNewOneRejected?.issues.map(\.path) == ["features.summarize.priority[2]"])
    }

    @Test func lowerVersionIsRefusedUnlessAllowed() async throws {
        let server = ConfigServerState()
        server.serve(Fixtures.config(version: 5))
        let (loader, _) = loader(server)
        await loader.refresh()
        server.serve(Fixtures.config(version: 4))
        let refused = await loader.refresh()
        #expect(refused.config.version == 5)
        #expect(refused.reasonNewOneRejected == .versionRollback(offered: 4, inUse: 5))

        let (allowing, _) = self.loader(server, options: ConfigLoader.Options(allowVersionRollback: true))
        server.serve(Fixtures.config(version: 5))
        await allowing.refresh()
        server.serve(Fixtures.config(version: 4))
        let accepted = await allowing.refresh()
        #expect(accepted.config.version == 4)
        #expect(accepted.reasonNewOneRejected == nil)
    }

    @Test func lastKnownGoodOlderThanBundledIsIgnored() async {
        let cache = InMemoryConfigSnapshotCache([
            ConfigSnapshot(source: Self.url, body: Fixtures.config(version: 0), etag: "\"old\"", version: 0, fetchedAt: Date(), signature: nil)
        ])
        let (loader, _) = loader(ConfigServerState(), cache: cache)
        let resolution = await loader.start()
        #expect(resolution.source == .bundled)
    }

    @Test func corruptLastKnownGoodFallsBackToBundledWithReason() async {
        let cache = InMemoryConfigSnapshotCache([
            ConfigSnapshot(source: Self.url, body: Data("{oops".utf8), etag: nil, version: 9, fetchedAt: Date(), signature: nil)
        ])
        let (loader, _) = loader(ConfigServerState(), cache: cache)
        let resolution = await loader.start()
        #expect(resolution.source == .bundled)
        guard resolution.reasonNewOneRejected?.kind == .notJSON else {
            Issue.record("expected notJSON, got \(String(describing: resolution.reasonNewOneRejected))")
            return
        }
    }

    @Test func transportFailureKeepsCurrent() async {
        let transport = FakeTransport { request throws(TransportError) in
            throw .connectionFailed(url: request.url, detail: "Connection refused")
        }
        let loader = ConfigLoader(bundled: Fixtures.bundled(), sourceURL: Self.url, fetcher: ConfigFetcher(transport: transport))
        let resolution = await loader.refresh()
        #expect(resolution.source == .bundled)
        #expect(resolution.reasonNewOneRejected == .fetchFailed(url: Self.url, reason: "connection failed: Connection refused"))
    }
}
