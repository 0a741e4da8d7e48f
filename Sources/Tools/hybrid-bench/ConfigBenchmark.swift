import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridStore
import HybridTestSupport
import HybridCurl
import HybridTransport
import HybridProjectTestSupport

/// `hybrid-bench config [--features N] [--iterations N]`: start-up time of the effective config from the
/// last-known-good cache (target < 5 ms for 200 features), with and without a signature check, and the time of a
/// conditional refresh answered 304 by a loopback server.
///
/// Each start-up opens the SQLite database file afresh (as an app launch would), reads the last-known-good
/// snapshot, decodes and validates it. It goes through `SQLiteConfigSnapshotCache` (one raw read-only connection);
/// the same start-up over a fully opened `HybridDatabase` is printed beside it, and the split (cache read / parse /
/// decode / validate / rest, timed in the same iterations so they add up) attributes a miss.
enum ConfigBenchmark {
    static let startupTargetMilliseconds = 5.0
    static let source = "https://config.example.invalid/hybrid.json"

    static func run(_ arguments: BenchmarkArguments) async throws {
        let featureCount = arguments.int("features", default: 200)
        let iterations = arguments.int("iterations", default: 200)
        let body = try GeneratedConfig.document(base: HybridConfigDocument.bundledDefaultsJSON, features: featureCount)
        let bundled = try HybridConfigDocument.bundledDefaults()
        let signer = ConfigSigner.generate()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let databasePath = directory.appendingPathComponent("config.sqlite").path
        try await SQLiteConfigSnapshotStore(database: try HybridDatabase(path: databasePath)).save(
            ConfigSnapshot(source: source, body: body, etag: "\"bench\"", version: 2, fetchedAt: Date(), signature: try signer.sign(body)))
        print("config: \(featureCount + bundled.document.features.count) features, \(body.count) bytes, \(iterations) iterations")

        let plain = try await measureStartup(iterations, bundled: bundled) { SQLiteConfigSnapshotCache(path: databasePath) }
        let verifier = try ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64)
        let signed = try await measureStartup(iterations, bundled: bundled, verifier: verifier) { SQLiteConfigSnapshotCache(path: databasePath) }
        let fullOpen = try await measureStartup(iterations, bundled: bundled) {
            SQLiteConfigSnapshotStore(database: try HybridDatabase(path: databasePath))
        }
        let split = try await StartupSplit.measure(iterations, databasePath: databasePath, bundled: bundled, body: body)
        let notModified = try await measureNotModified(iterations * 5, bundled: bundled, body: body)

        // CPU time per start-up (the process's, averaged): much less inflated than wall time on a loaded machine.
        let cpuBefore = ResourceUsage.cpuSeconds()
        _ = try await measureStartup(iterations, bundled: bundled) { SQLiteConfigSnapshotCache(path: databasePath) }
        let cpuPerStartup = (ResourceUsage.cpuSeconds() - cpuBefore) * 1000 / Double(iterations)

        print(String(format: "  start-up from cache: median %.2f ms, p95 %.2f ms, CPU %.2f ms per start-up (load %@)",
                     plain.median, plain.p95, cpuPerStartup, ResourceUsage.loadAverage()))
        print(split.description)
        print(String(format: "  start-up from cache + Ed25519 check: median %.2f ms, p95 %.2f ms", signed.median, signed.p95))
        print(String(format: "  start-up over a fully opened HybridDatabase (pool, WAL set-up): median %.2f ms, p95 %.2f ms",
                     fullOpen.median, fullOpen.p95))
        print(String(format: "  refresh answered 304 on loopback: median %.3f ms, p95 %.3f ms", notModified.median, notModified.p95))
        print(String(format: "config: start-up %.2f ms (target < %.0f ms) %@ | 304 round trip %.3f ms",
                     plain.median, startupTargetMilliseconds, plain.median < startupTargetMilliseconds ? "OK" : "ABOVE TARGET",
                     notModified.median))
    }

    /// One app launch per iteration: a fresh cache (opening the file), `ConfigLoader.start()`.
    static func measureStartup(
        _ iterations: Int, bundled: ValidatedConfig, verifier: ConfigSignatureVerifier? = nil,
        cache: () throws -> any ConfigSnapshotCache
    ) async throws -> (median: Double, p95: Double) {
        try await measure(iterations) {
            let loader = ConfigLoader(
                bundled: bundled, sourceURL: source, fetcher: nil, cache: try cache(), verifier: verifier, promptFiles: .bundled)
            let resolution = await loader.start()
            guard case .lastKnownGood = resolution.source else {
                throw BenchFailure.notLoaded(resolution.reasonNewOneRejected.map(String.init(describing:)) ?? "no snapshot")
            }
            return (loader, resolution)
        }
    }

    /// Conditional refreshes of an unchanged config from a loopback server answering 304.
    static func measureNotModified(_ iterations: Int, bundled: ValidatedConfig, body: Data) async throws -> (median: Double, p95: Double) {
        let etag = "\"bench-etag\""
        let server = try LoopbackHTTPServer.synchronous(recordRequests: false) { request in
            if request.header("If-None-Match") == etag { return ScriptedResponse(status: 304, headers: [("ETag", etag)]) }
            return ScriptedResponse(headers: [("Content-Type", "application/json"), ("ETag", etag)], parts: [.bytes(body)])
        }
        defer { server.stop() }
        let loader = ConfigLoader(
            bundled: bundled, sourceURL: server.baseURL + "/hybrid.json", fetcher: ConfigFetcher(transport: CurlTransport()),
            promptFiles: .bundled)
        let first = await loader.refresh()
        guard first.outcome == .updated else { throw BenchFailure.notLoaded("first fetch: \(String(describing: first.reasonNewOneRejected))") }
        return try await measure(iterations) {
            let r = await loader.refresh()
            guard r.outcome == .notModified else { throw BenchFailure.notLoaded("expected 304") }
        }
    }

    /// Where start-up time goes. Each iteration times, one after another, the steps of a start-up on their own
    /// (a fresh cache's read, which opens, reads and closes the file; the parse; the parse and decode; the whole
    /// load) and then a whole `ConfigLoader.start()`, so the parts and the whole come from the same moment and the
    /// rest (`start()` minus cache read minus load: actor hops, the loader's own work) is attributed too.
    struct StartupSplit: CustomStringConvertible {
        var cacheRead: Double
        var parse: Double
        var decode: Double
        var decodeAndValidate: Double
        var startup: Double
        var rest: Double
        var decodeAndValidateCPU: Double

        static func measure(
            _ iterations: Int, databasePath: String, bundled: ValidatedConfig, body: Data
        ) async throws -> StartupSplit {
            var samples = Samples()
            for _ in 0..<iterations {
                let clock = ContinuousClock()
                var start = clock.now
                func lap() -> Double {
                    let now = clock.now
                    defer { start = now }
                    return (now - start).milliseconds
                }
                guard let snapshot = try await SQLiteConfigSnapshotCache(path: databasePath).lastKnownGood(source: source) else {
                    throw BenchFailure.notLoaded("no snapshot")
                }
                let cacheRead = lap()
                let tree = try JSONValue(parsing: String(decoding: snapshot.body, as: UTF8.self))
                let parse = lap()
                let document = try ConfigValidator.decode(snapshot.body)
                let decode = lap()
                let loaded = try ConfigValidator.load(snapshot.body, promptFiles: .bundled, checkUnknownKeys: false)
                let load = lap()
                let loader = ConfigLoader(
                    bundled: bundled, sourceURL: source, fetcher: nil, cache: SQLiteConfigSnapshotCache(path: databasePath),
                    promptFiles: .bundled)
                let resolution = await loader.start()
                let startup = lap()
                withExtendedLifetime((tree, document, loaded, loader, resolution)) {}
                samples.add(cacheRead: cacheRead, parse: parse, decode: decode, load: load, startup: startup)
            }
            let bothCPU = try threadCPUMedian(iterations) { _ = try ConfigValidator.load(body, promptFiles: .bundled, checkUnknownKeys: false) }
            return samples.split(decodeAndValidateCPU: bothCPU)
        }

        /// Per-iteration laps; medians per step, and the median of each iteration's unattributed rest.
        struct Samples {
            var cacheRead: [Double] = []
            var parse: [Double] = []
            var decode: [Double] = []
            var load: [Double] = []
            var startup: [Double] = []
            var rest: [Double] = []

            mutating func add(cacheRead: Double, parse: Double, decode: Double, load: Double, startup: Double) {
                self.cacheRead.append(cacheRead)
                self.parse.append(parse)
                self.decode.append(decode)
                self.load.append(load)
                self.startup.append(startup)
                rest.append(startup - cacheRead - load)
            }

            func split(decodeAndValidateCPU: Double) -> StartupSplit {
                StartupSplit(
                    cacheRead: cacheRead.median, parse: parse.median, decode: decode.median, decodeAndValidate: load.median,
                    startup: startup.median, rest: rest.median, decodeAndValidateCPU: decodeAndValidateCPU)
            }
        }

        /// Median CPU time of the calling thread over `body`, which must not suspend: time the thread spent
        /// preempted by other processes does not count, so it approximates an idle machine's wall time.
        static func threadCPUMedian(_ iterations: Int, _ body: () throws -> Void) throws -> Double {
            func now() -> Double {
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
            }
            var samples: [Double] = []
            for _ in 0..<iterations {
                let start = now()
                try body()
                samples.append(now() - start)
            }
            return samples.median
        }

        var description: String {
            String(format: "    split (medians, same iterations): start-up %.2f ms = cache read (open + read + close) %.2f ms"
                + " + load %.2f ms [parse %.2f, decode %.2f, validate %.2f] + rest (hops, loader) %.2f ms;"
                + " load of this thread's CPU %.2f ms",
                   startup, cacheRead, decodeAndValidate, parse, decode - parse, decodeAndValidate - decode, rest,
                   decodeAndValidateCPU)
        }
    }

    enum BenchFailure: Error { case notLoaded(String) }

    /// Median and 95th percentile in milliseconds.
    ///
    /// What `body` returns is released after the clock stops: an app keeps the config it started with, so freeing
    /// the previous iteration's document is not part of a start-up.
    static func measure<Kept>(_ iterations: Int, _ body: () async throws -> Kept) async throws -> (median: Double, p95: Double) {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = clock.now
            let kept = try await body()
            samples.append((clock.now - start).milliseconds)
            withExtendedLifetime(kept) {}
        }
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 95 / 100)])
    }
}
