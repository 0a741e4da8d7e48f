import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
import HybridTransport
@testable import HybridVirtualTime
import Synchronization
import Testing

/// When a fetched config takes effect: the loader's `refreshInterval` and `firstFetchWait`, over a real HTTP fetch
/// (loopback server, ETag, 304) with the loader's sleeps in virtual time, seen through the requests a router serves.
/// Version 1 (bundled) serves model `a` first; the fetched versions say which model serves.
@Suite("Config freshness: the refresh interval and the wait for the first fetch")
struct ConfigFreshnessTests {
    static let interval: Duration = .seconds(600)

    @Test("the config is refetched in the background once per interval, with the ETag; a 304 keeps it")
    func refetchedOncePerInterval() async throws {
        let server = try ConfigServer(Self.config(version: 2, first: "b"), etag: "\"v2\"")
        defer { server.http.stop() }
        let clock = VirtualClock()
        let start = clock.now
        let (router, loader) = try Self.router(server, clock: clock, options: .init(refreshInterval: Self.interval))

        // Never fetched: the router's first `start()` schedules a fetch at once; the first request does not wait.
        #expect(try await Self.servedBy(router) == "a")
        #expect(await server.http.waitUntil { $0.requestCount == 1 })
        #expect(await loader.settled().outcome == .updated)
        #expect(try await Self.servedBy(router) == "b")
        // Short of the interval nothing is fetched (the schedule sleeps in virtual time until it is due).
        clock.advance(to: start + Self.interval - .seconds(1))
        #expect(try await Self.servedBy(router) == "b")
        _ = await loader.settled()
        #expect(server.http.requestCount == 1)

        // Due: one conditional fetch; the server's 304 keeps v2.
        clock.expire(through: start + Self.interval)
        #expect(await server.http.waitUntil { $0.requestCount == 2 })
        let unchanged = await loader.settled()
        #expect(unchanged.outcome == .notModified && unchanged.config.version == 2)
        #expect(server.http.requests.map { $0.header("If-None-Match") } == [nil, "\"v2\""])

        // A new version: requests while it is on its way keep v2; the first one after it ends is served v3.
        let stall = ServerSignal()
        server.serve(Self.config(version: 3, first: "a"), etag: "\"v3\"", stall: stall)
        clock.expire(through: start + Self.interval * 2)
        #expect(await server.http.waitUntil { $0.requestCount == 3 })
        #expect(try await Self.servedBy(router) == "b")
        stall.fire()
        #expect(await loader.settled().config.version == 3)
        #expect(try await Self.servedBy(router) == "a")
        #expect(server.http.requestCount == 3)
    }

    @Test("with firstFetchWait, the first request is served the fetched config when the fetch ends in time")
    func firstRequestWaitsForAQuickFetch() async throws {
        let server = try ConfigServer(Self.config(version: 2, first: "b"), etag: "\"v2\"")
        defer { server.http.stop() }
        // Virtual time never moves here, so only the fetch's answer can end the wait.
        let (router, loader) = try Self.router(server, clock: VirtualClock(), options: .init(firstFetchWait: .seconds(2)))
        #expect(try await Self.servedBy(router) == "b")
        #expect(try await Self.servedBy(router) == "b")
        _ = await loader.settled()
        #expect(server.http.requestCount == 1)  // no refreshInterval: no second fetch
    }

    @Test("with firstFetchWait, a fetch slower than the wait serves the first request the defaults, the next the fetched config")
    func slowFirstFetchServesTheDefaults() async throws {
        let server = try ConfigServer(Self.config(version: 2, first: "b"), etag: "\"v2\"")
        defer { server.http.stop() }
        let stall = ServerSignal()
        server.serve(Self.config(version: 2, first: "b"), etag: "\"v2\"", stall: stall)
        let clock = VirtualClock()
        let start = clock.now
        let (router, loader) = try Self.router(server, clock: clock, options: .init(firstFetchWait: .seconds(2)))

        let first = Task { try await Self.servedBy(router) }
        // The request reached the server, so the first request is waiting: let the wait run out.
        #expect(await server.http.waitUntil { $0.requestCount == 1 })
        clock.advance(to: start + .seconds(3))
        #expect(try await first.value == "a")
        stall.fire()
        #expect(await loader.settled().config.version == 2)
        #expect(try await Self.servedBy(router) == "b")
    }

    // MARK: - Fixtures

    /// A config whose priority order starts with `first`.
    static func config(version: Int, first: String) -> Data {
        let models = ["a": Fixtures.modelConfig(), "b": Fixtures.modelConfig()]
        return Fixtures.document(version: version, models: models, priority: first == "a" ? ["a", "b"] : ["b", "a"]).encodedJSON()
    }

    /// A router over a loader (bundled v1, `a` first) fetching from `server` through URLSession, the app's transport.
    static func router(_ server: ConfigServer, clock: VirtualClock, options: ConfigLoader.Options) throws -> (Router, ConfigLoader) {
        let loader = ConfigLoader(
            bundled: try ConfigValidator.load(config(version: 1, first: "a")), sourceURL: server.url,
            fetcher: ConfigFetcher(transport: URLSessionTransport.shared), cache: InMemoryConfigSnapshotCache(),
            options: options, monotonicNow: { clock.now }, sleep: { try await clock.sleep(until: $0) })
        let models: [String: any LanguageModel] = [
            "a": ScriptedLanguageModel(id: "a", whenExhausted: .reply("from a")),
            "b": ScriptedLanguageModel(id: "b", whenExhausted: .reply("from b")),
        ]
        return (try Router(config: .loader(loader), models: .models(models), installId: "install-1"), loader)
    }

    /// The id of the model that served one request.
    static func servedBy(_ router: Router) async throws -> String {
        try await router.generate(feature: Fixtures.feature, input: Fixtures.input).servedBy.id
    }
}

/// A config server on loopback that answers 304 when `If-None-Match` names the ETag it serves, and can hold its
/// answer until the test fires a signal.
final class ConfigServer: Sendable {
    struct Served {
        var body: Data
        var etag: String
        var stall: ServerSignal?
    }

    /// What the server answers; a class so the handler and the test share it.
    final class Script: Sendable {
        let served: Mutex<Served>
        init(_ served: Served) { self.served = Mutex(served) }
    }

    let script: Script
    let http: LoopbackHTTPServer

    init(_ body: Data, etag: String) throws {
        let script = Script(Served(body: body, etag: etag))
        self.http = try LoopbackHTTPServer { request in
            let now = script.served.withLock { $0 }
            if request.header("If-None-Match") == now.etag { return ScriptedResponse(status: 304, headers: [("ETag", now.etag)]) }
            let wait: [ScriptedResponse.Part] = now.stall.map { [.waitFor($0)] } ?? []
            return ScriptedResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("ETag", now.etag)], parts: wait + [.bytes(now.body)])
        }
        self.script = script
    }

    var url: String { http.baseURL + "/hybrid.json" }

    func serve(_ body: Data, etag: String, stall: ServerSignal? = nil) {
        script.served.withLock { $0 = Served(body: body, etag: etag, stall: stall) }
    }
}
