import Foundation
import HybridCollect
import HybridCore
import HybridCurl
import HybridStore
import HybridTestSupport
import HybridTransport
import Testing
import HybridProjectTestSupport

/// The collector in-process on 127.0.0.1 port 0, driven over real HTTP with libcurl, in the uploader's wire format
/// (`RouteEventBatch`, gzip, bearer token).
@Suite struct CollectorServerTests {
    static func event(_ id: String, latency: Double = 40) -> RouteEvent {
        RouteEvent(
            id: id, timestamp: Date(timeIntervalSince1970: 1_763_850_000), installId: "install-\(id)", feature: "summarize",
            configVersion: 7, variant: "concise", rolloutArm: "brief", bucket: 12, servedBy: "cloud",
            servedTier: .thirdParty, outcome: .served,
            attempts: [.init(model: "cloud", tier: .thirdParty, outcome: .served, startMs: 0, durationMs: latency)],
            latencyMs: latency, inputTokens: 12, outputTokens: 4, costUSD: 0.00001,
            checks: [.init(name: "max_words", passed: true)], labels: ["os": "iOS 18"])
    }

    struct Running {
        let endpoint: String
        let task: Task<Void, any Error>
        let store: SQLiteFieldEventStore
    }

    static func start(token: String? = "s3cret", limit: Int = 64 * 1024) async throws -> Running {
        let store = SQLiteFieldEventStore(database: try HybridDatabase.inMemory())
        let server = CollectorServer(ingestor: FieldEventIngestor(store: store), token: token, maximumBodyBytes: limit)
        let (urls, continuation) = AsyncStream.makeStream(of: URL.self)
        let task = Task { try await server.run(port: 0) { continuation.yield($0) } }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        return Running(endpoint: url.absoluteString, task: task, store: store)
    }

    static func post(_ body: Data, to endpoint: String, token: String? = "s3cret", gzip: Bool = false) async throws
        -> (Int, String)
    {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        if gzip { headers.add(name: "Content-Encoding", value: "gzip") }
        let response = try await CurlTransport.shared.execute(
            HTTPRequest(method: "POST", url: endpoint, headers: headers, body: body))
        var data = Data()
        for try await chunk in response.body { data.append(chunk) }
        return (response.status, String(decoding: data, as: UTF8.self))
    }

    static func batch(_ events: [RouteEvent]) throws -> Data {
        try JSONEncoder().encode(RouteEventBatch(events: events))
    }

    @Test func storesABatchAndIgnoresItWhenSentAgain() async throws {
        let running = try await Self.start()
        defer { running.task.cancel() }
        let body = try Self.batch([Self.event("a"), Self.event("b")])
        let (status, text) = try await Self.post(body, to: running.endpoint)
        #expect(status == 200)
        let first = try JSONDecoder().decode(RouteEventBatchResponse.self, from: Data(text.utf8))
        #expect(first == RouteEventBatchResponse(accepted: 2, duplicates: 0))
        let (_, again) = try await Self.post(body, to: running.endpoint)
        #expect(try JSONDecoder().decode(RouteEventBatchResponse.self, from: Data(again.utf8)) == RouteEventBatchResponse(accepted: 0, duplicates: 2))
        #expect(try await running.store.eventCount(run: "field-summarize-v7") == 2)
    }

    /// A key the store cannot keep exactly (a NUL in `feature` failed the whole batch with a foreign-key error and
    /// answered 500, which an uploader retries forever) is refused alone, by index and reason, and the rest stored.
    @Test func refusesKeysTheStoreCannotKeepOneByOne() async throws {
        let running = try await Self.start()
        defer { running.task.cancel() }
        var nul = Self.event("nul")
        nul.feature = "\u{0}"
        var newline = Self.event("newline")
        newline.checks = [.init(name: "max\nwords", passed: false)]
        var long = Self.event("long")
        long.labels = ["deviceClass": String(repeating: "x", count: 300)]
        var version = Self.event("version")
        version.configVersion = Int(Int32.max) + 1
        let body = try Self.batch([Self.event("a"), nul, newline, long, version, Self.event("b")])
        let (status, text) = try await Self.post(body, to: running.endpoint)
        #expect(status == 200, "\(text)")
        let answer = try JSONDecoder().decode(RouteEventBatchResponse.self, from: Data(text.utf8))
        #expect(answer.accepted == 2)
        #expect(answer.rejected.map(\.index) == [1, 2, 3, 4])
        #expect(answer.rejected.first?.reason.contains("feature: has control character U+0000") == true, "\(answer.rejected)")
        #expect(answer.rejected.dropFirst().first?.reason.contains("checks[0].name") == true)
        #expect(try await running.store.eventCount(run: "field-summarize-v7") == 2)
    }

    @Test func refusesMalformedEventsByIndexAndKeepsTheRest() async throws {
        let running = try await Self.start()
        defer { running.task.cancel() }
        var object = try #require(
            JSONSerialization.jsonObject(with: try Self.batch([Self.event("ok"), Self.event("x"), Self.event("neg", latency: -5)]))
                as? [String: Any])
        var events = try #require(object["events"] as? [[String: Any]])
        events[1].removeValue(forKey: "installId")
        object["events"] = events
        let (status, text) = try await Self.post(try JSONSerialization.data(withJSONObject: object), to: running.endpoint)
        #expect(status == 200)
        let response = try JSONDecoder().decode(RouteEventBatchResponse.self, from: Data(text.utf8))
        #expect(response.accepted == 1)
        #expect(response.rejected.map(\.index) == [1, 2])
        #expect(response.rejected[0].reason == "installId: missing")
        #expect(response.rejected[1].reason.hasPrefix("latencyMs: -5.0"))
    }

    @Test func checksTheTokenTheSizeAndTheBatchShape() async throws {
        let running = try await Self.start(limit: 2_048)
        defer { running.task.cancel() }
        let body = try Self.batch([Self.event("a")])
        #expect(try await Self.post(body, to: running.endpoint, token: nil).0 == 401)
        #expect(try await Self.post(body, to: running.endpoint, token: "s3creT").0 == 401)
        let large = try Self.batch((0..<40).map { Self.event("e\($0)") })
        #expect(try await Self.post(large, to: running.endpoint).0 == 413)
        let (status, text) = try await Self.post(Data(#"{"schemaVersion": 9, "events": []}"#.utf8), to: running.endpoint)
        #expect(status == 400)
        #expect(text.contains("schemaVersion: 9"))
        #expect(try await running.store.fieldRunIDs().isEmpty)
    }

    /// The body compressed by the system's `gzip`, as any HTTP client would send it.
    @Test func acceptsGzipBodies() async throws {
        let running = try await Self.start()
        defer { running.task.cancel() }
        let directory = try TemporaryDirectory()
        let plain = directory.url.appendingPathComponent("batch.json")
        try Self.batch([Self.event("g1"), Self.event("g2")]).write(to: plain)
        let gzip = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -c '\(plain.path)' > '\(plain.path).gz'"])
        #expect(gzip.status == 0)
        let compressed = try Data(contentsOf: URL(fileURLWithPath: plain.path + ".gz"))
        let (status, text) = try await Self.post(compressed, to: running.endpoint, gzip: true)
        #expect(status == 200, "\(text)")
        #expect(try await running.store.eventCount(run: "field-summarize-v7") == 2)
        #expect(try await Self.post(Data("not gzip".utf8), to: running.endpoint, gzip: true).0 == 400)
    }
}
