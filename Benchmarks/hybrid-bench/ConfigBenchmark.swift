import Foundation
import HybridConfig
import HybridCore
import HybridStore
import HybridTestSupport
import HybridCurl
import HybridTransport

/// `hybrid-bench config [--features N] [--iterations N]`: start-up time of the effective config from the
/// last-known-good cache (target < 5 ms for 200 features), with and without a signature check, and the time of a
/// conditional refresh answered 304 by a loopback server.
///
/// Each start-up opens the SQLite database file afresh (as an app launch would), reads the last-known-good
/// snapshot, decodes and validates it. It goes through `SQLiteConfigSnapshotCache` (one read-only connection);
/// the same start-up over a fully opened `HybridDatabase` is printed beside it, and the split (open / read /
/// decode / validate) attributes a miss.
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
        let split = try await StartupSplit.measure(iterations, databasePath: databasePath, body: body)
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
            let loader = ConfigLoader(bundled: bundled, sourceURL: source, fetcher: nil, cache: try cache(), verifier: verifier)
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
            bundled: bundled, sourceURL: server.baseURL + "/hybrid.json", fetcher: ConfigFetcher(transport: CurlTransport()))
        let first = await loader.refresh()
        guard first.outcome == .updated else { throw BenchFailure.notLoaded("first fetch: \(String(describing: first.reasonNewOneRejected))") }
        return try await measure(iterations) {
            let r = await loader.refresh()
            guard r.outcome == .notModified else { throw BenchFailure.notLoaded("expected 304") }
        }
    }

    /// Where start-up time goes, each step measured alone (medians).
    struct StartupSplit: CustomStringConvertible {
        var open: Double
        var read: Double
        var decode: Double
        var decodeAndValidate: Double
        var decodeAndValidateCPU: Double

        static func measure(_ iterations: Int, databasePath: String, body: Data) async throws -> StartupSplit {
            let open = try await ConfigBenchmark.measure(iterations) { try HybridDatabase.openForQuickRead(path: databasePath) }
            guard let database = try HybridDatabase.openForQuickRead(path: databasePath) else { throw BenchFailure.notLoaded("quick read") }
            let store = SQLiteConfigSnapshotStore(database: database)
            let read = try await ConfigBenchmark.measure(iterations) { try await store.latestSnapshot(source: source) }
            let decode = try await ConfigBenchmark.measure(iterations) { try ConfigValidator.decode(body) }
            let both = try await ConfigBenchmark.measure(iterations) { try ConfigValidator.load(body, checkUnknownKeys: false) }
            let bothCPU = try threadCPUMedian(iterations) { _ = try ConfigValidator.load(body, checkUnknownKeys: false) }
            return StartupSplit(
                open: open.median, read: read.median, decode: decode.median, decodeAndValidate: both.median,
                decodeAndValidateCPU: bothCPU)
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
            return samples.sorted()[samples.count / 2]
        }

        var description: String {
            String(format: "    split (medians): open %.2f ms, read %.2f ms, parse + decode %.2f ms, validate %.2f ms (decode + validate %.2f ms, of this thread's CPU %.2f ms)",
                   open, read, decode, decodeAndValidate - decode, decodeAndValidate, decodeAndValidateCPU)
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
