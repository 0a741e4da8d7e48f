import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport cancellation")
struct CurlTransportCancellationTests {
    @Test("cancelling the task waiting in execute throws .cancelled and closes the connection")
    func cancelDuringExecute() async throws {
        let server = try LoopbackHTTPServer { _ in ScriptedResponse(parts: [.text("x")], headDelay: .seconds(60)) }
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL + "/hang"
        let task = Task { () async -> TransportError? in
            await transportError { _ = try await transport.execute(request(url)) }
        }
        #expect(await server.waitUntil { $0.requestCount == 1 })
        task.cancel()
        #expect(await task.value == .cancelled(url: url))
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }

    @Test("cancelling the task iterating the body ends the stream with .cancelled and closes the connection")
    func cancelDuringBody() async throws {
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never), .text("second")], framing: .chunked)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL + "/endless"
        let (progress, progressSink) = AsyncStream<Data>.makeStream()
        let task = Task { () async -> TransportError? in
            await transportError {
                let response = try await transport.execute(request(url))
                for try await chunk in response.body { progressSink.yield(chunk) }
            }
        }
        var events = progress.makeAsyncIterator()
        #expect(await events.next() == "first".utf8Data)
        task.cancel()
        #expect(await task.value == .cancelled(url: url))
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
        #expect(!never.isFired)
    }

    @Test("a task cancelled between two chunks gets .cancelled, never a silent end that looks like a whole body")
    func cancelledBetweenChunks() async throws {
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never), .text("second")], framing: .chunked)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL + "/between"
        let task = Task { () async -> TransportError? in
            await transportError {
                let response = try await transport.execute(request(url))
                var iterator = response.body.makeAsyncIterator()
                _ = try await iterator.next()
                // Cancelled after one chunk and before asking for the next: the next call must throw.
                withUnsafeCurrentTask { $0?.cancel() }
                _ = try await iterator.next()
            }
        }
        #expect(await task.value == .cancelled(url: url))
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }

    @Test("dropping an unread body stream cancels the transfer")
    func droppingTheStreamCancels() async throws {
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never)], framing: .chunked)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        do {
            let response = try await transport.execute(request(server.baseURL + "/dropped"))
            #expect(response.status == 200)
        }
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }

    @Test("leaving the for-await loop early, once the response is out of scope, cancels the transfer")
    func breakingOutCancels() async throws {
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("first"), .waitFor(never)], framing: .chunked)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        do {
            // The stream lives as long as `response` does, so the drop happens at the end of this scope.
            let response = try await transport.execute(request(server.baseURL + "/break"))
            for try await chunk in response.body {
                #expect(chunk == "first".utf8Data)
                break
            }
        }
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }

    @Test("after a cancelled transfer the transport keeps serving requests")
    func transportSurvivesCancellation() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/hang" ? ScriptedResponse(parts: [.text("x")], headDelay: .seconds(60)) : .text("fine")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL
        let task = Task { await transportError { _ = try await transport.execute(request(url + "/hang")) } }
        #expect(await server.waitUntil { $0.requestCount == 1 })
        task.cancel()
        #expect(await task.value == .cancelled(url: url + "/hang"))
        let (_, body) = try await transport.send(request(url + "/ok"))
        #expect(body == "fine".utf8Data)
    }
}
