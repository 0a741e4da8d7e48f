import Foundation
@testable import HybridCore
@testable import HybridEvents
import HybridTestSupport
import HybridTransport
import Testing
import HybridProjectTestSupport

@Suite("HTTPBatchEventUploader: gzip batches, retries, spool, bounded queue")
struct HTTPBatchEventUploaderTests {
    static func configuration(
        _ endpoint: String, spool: URL? = nil, maxQueued: Int = 1000, batch: Int = 100, age: Duration = .seconds(60),
        backoff: Duration = .seconds(60)
    ) -> HTTPBatchEventUploader.Configuration {
        .init(
            endpoint: endpoint, token: "test-token-123", spoolDirectory: spool, maxQueuedEvents: maxQueued,
            maxBatchEvents: batch, maxBatchAge: age, initialBackoff: backoff, maxBackoff: backoff)
    }

    /// The uploader's status once `condition` holds (the collector records a batch before the uploader has read
    /// the answer), or after 10 s.
    static func status(
        of uploader: HTTPBatchEventUploader, until condition: (HTTPBatchEventUploader.Status) -> Bool
    ) async throws -> HTTPBatchEventUploader.Status {
        let deadline = ContinuousClock.now + .seconds(10)
        var status = await uploader.currentStatus
        while !condition(status), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            status = await uploader.currentStatus
        }
        return status
    }

    @Test("a full batch goes on its own: gzip body (checked with Python's gzip), JSON and bearer headers")
    func wireFormat() async throws {
        let collector = try TestCollector()
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(configuration: Self.configuration(collector.endpoint, batch: 3))
        for i in 0..<3 { uploader.record(RouteEvent.fixture(i)) }
        #expect(await collector.server.waitUntil { _ in collector.batches.count == 1 })
        let request = try #require(collector.server.requests.first)
        #expect(request.method == "POST" && request.pathWithoutQuery == "/v1/events")
        #expect(request.header("Content-Encoding") == "gzip")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Authorization") == "Bearer test-token-123")
        let gunzip = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import gzip, sys; sys.stdout.write(gzip.decompress(sys.stdin.buffer.read()).decode())"],
            input: request.body)
        #expect(gunzip.status == 0)
        let batch = try JSONDecoder().decode(RouteEventBatch.self, from: Data(gunzip.stdout.utf8))
        #expect(batch.schemaVersion == 1)
        #expect(batch.events == (0..<3).map(RouteEvent.fixture))
        let status = try await Self.status(of: uploader) { $0.sent == 3 }
        #expect(status.sent == 3 && status.pending == 0)
    }

    @Test("events left behind a full batch keep their own age: they wait for a full batch or maxBatchAge, not go at once")
    func leftoversWaitForABatch() async throws {
        let collector = try TestCollector()
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(configuration: Self.configuration(collector.endpoint, batch: 3))
        for i in 0..<5 { uploader.record(RouteEvent.fixture(i)) }
        let first = try await Self.status(of: uploader) { $0.sent == 3 }
        #expect(first.sent == 3 && first.pending == 2)
        try await Task.sleep(for: .milliseconds(300))
        #expect(collector.batches.count == 1, "two fresh events went on their own")
        uploader.record(RouteEvent.fixture(5))
        let second = try await Self.status(of: uploader) { $0.sent == 6 }
        #expect(second.sent == 6 && collector.batches.count == 2)
    }

    @Test("a 503 is retried after its Retry-After, then the batch is accepted")
    func retryAfter503() async throws {
        let collector = try TestCollector(script: [.json(status: 503, "{}", headers: [("Retry-After", "1")])])
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(
            configuration: Self.configuration(collector.endpoint, batch: 2, backoff: .milliseconds(10)))
        let started = ContinuousClock.now
        uploader.record(RouteEvent.fixture(1))
        uploader.record(RouteEvent.fixture(2))
        #expect(await collector.server.waitUntil { _ in collector.batches.count == 1 })
        // The back-off alone is 10 ms: only the server's Retry-After makes the retry wait a second.
        #expect(ContinuousClock.now - started >= .milliseconds(950))
        #expect(collector.server.requestCount == 2)
        #expect(collector.eventIDs == ["event-1", "event-2"])
        let status = try await Self.status(of: uploader) { $0.sent == 2 }
        #expect(status.failedUploads == 1 && status.pending == 0 && status.lastError == nil)
    }

    @Test("a 401 stops uploading and is reported, without the token")
    func unauthorizedStops() async throws {
        let collector = try TestCollector(script: Array(repeating: .json(status: 401, "{}"), count: 5))
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(
            configuration: Self.configuration(collector.endpoint, batch: 1, backoff: .milliseconds(1)))
        uploader.record(RouteEvent.fixture(1))
        #expect(await collector.server.waitUntil { _ in collector.server.requestCount == 1 })
        try await Task.sleep(for: .milliseconds(200))
        uploader.record(RouteEvent.fixture(2))
        let status = await uploader.flush()
        #expect(collector.server.requestCount == 1)
        #expect(status.stopped && status.pending == 2 && status.failedUploads == 1)
        let message = try #require(status.lastError)
        #expect(message.contains("401") && !message.contains("test-token-123"))
    }

    @Test("a full queue drops new events, counts them, and the next batch reports the count")
    func boundedQueue() async throws {
        let collector = try TestCollector()
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(configuration: Self.configuration(collector.endpoint, maxQueued: 5))
        for i in 0..<8 { uploader.record(RouteEvent.fixture(i)) }
        #expect(uploader.droppedCount == 3)
        let status = await uploader.flush()
        #expect(status.droppedCount == 3 && status.sent == 5 && status.pending == 0)
        #expect(collector.batches.map(\.droppedEvents) == [3])
        #expect(collector.eventIDs == (0..<5).map { "event-\($0)" })
        uploader.record(RouteEvent.fixture(9))
        await uploader.flush()
        #expect(collector.batches.last?.droppedEvents == nil)
    }

    @Test("events spooled by an uploader that could not send are sent by the next one on the same directory, once")
    func spoolSurvivesRestart() async throws {
        try await withTemporaryDirectory { directory in
            let down = try TestCollector(script: Array(repeating: .json(status: 503, "{}"), count: 10))
            defer { down.stop() }
            let first = HTTPBatchEventUploader(configuration: Self.configuration(down.endpoint, spool: directory.url))
            for i in 0..<4 { first.record(RouteEvent.fixture(i)) }
            let failed = await first.flush()
            #expect(failed.pending == 4 && failed.failedUploads == 1)

            let collector = try TestCollector()
            defer { collector.stop() }
            // The app restarts: a new uploader on the same spool directory.
            let second = HTTPBatchEventUploader(configuration: Self.configuration(collector.endpoint, spool: directory.url, age: .milliseconds(1)))
            #expect(await collector.server.waitUntil { _ in collector.batches.count == 1 })
            #expect(collector.eventIDs == (0..<4).map { "event-\($0)" })
            #expect(await second.flush().pending == 0)
            let third = HTTPBatchEventUploader(configuration: Self.configuration(collector.endpoint, spool: directory.url))
            #expect(await third.flush().pending == 0)
            #expect(collector.server.requestCount == 1)
        }
    }
}
