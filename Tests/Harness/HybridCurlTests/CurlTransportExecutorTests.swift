import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

// `CurlTransport.taskExecutor` runs tasks on the transport's loop thread (the eval runner's samples prefer it), so
// the checks here run the transport from that very thread: requests added without a wakeup, completions resumed
// in place, cancellation and timeouts still acted on.

@Suite("CurlTransport as a task executor", .serialized)
struct CurlTransportExecutorTests {
    /// The name of the thread running the caller, as the kernel knows it (Linux; the loop thread names itself).
    private static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .newlines)
    }

    @Test("a task preferring the executor resumes on the loop thread when its response arrives")
    func resumesOnLoopThread() async throws {
        let server = try LoopbackHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        let transport = CurlTransport()
        let names = try await withTaskExecutorPreference(transport.taskExecutor) {
            let before = Self.threadName()
            let (response, body) = try await transport.send(TransportConformance.request(server.baseURL + "/where"))
            #expect(response.status == 200)
            #expect(body == "ok".utf8Data)
            return (before, Self.threadName())
        }
        #expect(names.0 == "CurlTransport")
        #expect(names.1 == "CurlTransport")
    }

    @Test("64 requests started from the loop thread, 16 at a time, each reach the server once")
    func manyRequestsFromLoopThread() async throws {
        let server = try LoopbackHTTPServer { request in .text(request.path) }
        defer { server.stop() }
        let transport = CurlTransport(maxConnections: 16)
        let bodies = try await withTaskExecutorPreference(transport.taskExecutor) {
            try await withThrowingTaskGroup(of: String.self) { group in
                var bodies: [String] = []
                for index in 0..<64 {
                    if index >= 16, let body = try await group.next() { bodies.append(body) }
                    group.addTask {
                        let (_, body) = try await transport.send(TransportConformance.request(server.baseURL + "/r\(index)"))
                        return String(decoding: body, as: UTF8.self)
                    }
                }
                for try await body in group { bodies.append(body) }
                return bodies
            }
        }
        #expect(Set(bodies) == Set((0..<64).map { "/r\($0)" }))
        #expect(server.requestCount == 64)
    }

    @Test("a task still preferring the executor after its transport is gone runs on the global pool")
    func outlivesTransport() async throws {
        var transport: CurlTransport? = CurlTransport()
        let executor = try #require(transport?.taskExecutor)
        transport = nil
        // The loop thread ends once it has nothing left; give it the moment it needs.
        try await Task.sleep(for: .milliseconds(200))
        let value = await withTaskExecutorPreference(executor) {
            await Task.yield()
            return 42
        }
        #expect(value == 42)
    }
}

/// The conformance checks that wait on the loop (cancellation, timeouts, limits, streaming, many at once), run from
/// the loop thread itself.
@Suite("Transport conformance: CurlTransport with tasks on its loop thread", .serialized)
struct CurlTransportOnLoopConformanceTests {
    @Test(arguments: [
        TransportConformanceCheck.chunksInOrderAsSent, .cancelBeforeHead, .cancelMidBody, .cancelBetweenChunks,
        .droppedBodyCancels, .firstByteTimeout, .totalTimeout, .bodyOverLimit, .concurrentRequests,
        .serverClosesMidBody,
    ])
    func conforms(_ check: TransportConformanceCheck) async throws {
        let transport = CurlTransport()
        try await withTaskExecutorPreference(transport.taskExecutor) {
            try await TransportConformance { transport }.run(check)
        }
    }
}
