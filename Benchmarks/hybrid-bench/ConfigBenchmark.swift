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
/// snapshot, decodes and validates it.
enum ConfigBenchmark {
    static let startupTargetMilliseconds = 5.0

    static func run(_ arguments: BenchmarkArguments) async throws {
        let featureCount = arguments.int("features", default: 200)
        let iterations = arguments.int("iterations", default: 200)
        let body = try largeConfig(features: featureCount)
        let source = "https://config.example.invalid/hybrid.json"
        let bundled = try HybridConfigDocument.bundledDefaults()
        let signer = ConfigSigner.generate()
        let signature = try signer.sign(body)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-bench-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let databasePath = directory.appendingPathComponent("config.sqlite").path
        try await SQLiteConfigSnapshotStore(database: try HybridDatabase(path: databasePath)).save(
            ConfigSnapshot(source: source, body: body, etag: "\"bench\"", version: 2, fetchedAt: Date(), signature: signature))
        print("config: \(featureCount + bundled.document.features.count) features, \(body.count) bytes, \(iterations) iterations")

        let plain = try await measure(iterations) {
            let cache = SQLiteConfigSnapshotStore(database: try HybridDatabase(path: databasePath))
            let loader = ConfigLoader(bundled: bundled, sourceURL: source, fetcher: nil, cache: cache)
            let resolution = await loader.start()
            guard case .lastKnownGood = resolution.source else { throw BenchFailure.notLoaded("\(resolution.reasonNewOneRejected.map(String.init(describing:)) ?? "")") }
        }
        let verifier = try ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64)
        let signed = try await measure(iterations) {
            let cache = SQLiteConfigSnapshotStore(database: try HybridDatabase(path: databasePath))
            let loader = ConfigLoader(bundled: bundled, sourceURL: source, fetcher: nil, cache: cache, verifier: verifier)
            let resolution = await loader.start()
            guard case .lastKnownGood = resolution.source else { throw BenchFailure.notLoaded("signed") }
        }

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
        let notModified = try await measure(iterations * 5) {
            let r = await loader.refresh()
            guard r.outcome == .notModified else { throw BenchFailure.notLoaded("expected 304") }
        }

        // Where start-up time goes, so a miss can be attributed.
        let openOnly = try await measure(iterations) { _ = try HybridDatabase(path: databasePath) }
        let validateOnly = try await measure(iterations) { _ = try ConfigValidator.load(body) }
        print(String(format: "  start-up from cache: median %.2f ms, p95 %.2f ms", plain.median, plain.p95))
        print(String(format: "    of which opening the database %.2f ms, decoding and validating %.2f ms", openOnly.median, validateOnly.median))
        print(String(format: "  start-up from cache + Ed25519 check: median %.2f ms, p95 %.2f ms", signed.median, signed.p95))
        print(String(format: "  refresh answered 304 on loopback: median %.3f ms, p95 %.3f ms", notModified.median, notModified.p95))
        print(String(format: "config: start-up %.2f ms (target < %.0f ms) %@ | 304 round trip %.3f ms",
                     plain.median, startupTargetMilliseconds, plain.median < startupTargetMilliseconds ? "OK" : "ABOVE TARGET",
                     notModified.median))
    }

    enum BenchFailure: Error { case notLoaded(String) }

    /// Median and 95th percentile in milliseconds.
    static func measure(_ iterations: Int, _ body: () async throws -> Void) async throws -> (median: Double, p95: Double) {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = clock.now
            try await body()
            samples.append((clock.now - start).milliseconds)
        }
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 95 / 100)])
    }

    /// The bundled defaults plus `features` generated features shaped like real ones (two variants, constraints,
    /// a schema on every fourth), serialized as a remote payload would be.
    static func largeConfig(features: Int) throws -> Data {
        var root = try JSONDecoder().decode([String: JSONValue].self, from: HybridConfigDocument.bundledDefaultsJSON)
        var all = root["features"]?.objectValue ?? [:]
        for i in 0..<features {
            var feature: [String: JSONValue] = [
                "description": .string("Generated feature \(i)"),
                "inputs": ["input", "language"],
                "instructions": .string("You are a careful assistant for task \(i). Answer in {{language}}."),
                "variants": [
                    "a": ["template": .string("Task \(i): summarize the text below in {{language}}.\n\nText:\n{{input}}\n\nAnswer:")],
                    "b": ["template": .string("Task \(i), variant B. Keep it short, in {{language}}.\n\n{{input}}")],
                ],
                "defaultVariant": "a",
                "constraints": ["maxSentences": 3, "maxWords": 80, "mustNotContain": ["As an AI"]],
                "options": ["temperature": 0.2, "maxOutputTokens": 160],
                "priority": ["local-smollm2", "gemini-flash", "openai-gpt-4o-mini"],
                "deadlineMs": 15000,
                "privacy": "open",
                "monthlyBudgetUSD": 3,
            ]
            if i % 4 == 0 {
                feature["outputSchema"] = [
                    "type": "object",
                    "properties": ["label": ["type": "string", "enum": ["a", "b", "c"]], "score": ["type": "number"]],
                    "required": ["label"],
                    "additionalProperties": false,
                ]
            }
            all["generated_\(i)"] = .object(feature)
        }
        root["features"] = .object(all)
        root["version"] = 2
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(root)
    }
}
