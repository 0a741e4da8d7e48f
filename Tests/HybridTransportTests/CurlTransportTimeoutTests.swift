import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport timeouts and connection failures")
struct CurlTransportTimeoutTests {
    @Test("a refused connection is .connectionFailed, with the query string (and its key) removed")
    func connectionRefused() async throws {
        let port = SocketFixtures.closedPort()
        let url = "http://127.0.0.1:\(port)/v1/models?key=SECRET-KEY"
        let error = await transportError { _ = try await CurlTransport().execute(request(url)) }
        guard case .connectionFailed(let reported, _) = error else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(reported == "http://127.0.0.1:\(port)/v1/models")
        #expect(!String(describing: error!).contains("SECRET"))
    }

    @Test("no byte before the first-byte limit: .timedOut(firstByte), and the server sees the client leave")
    func firstByteTimeout() async throws {
        let server = try LoopbackHTTPServer { _ in ScriptedResponse(parts: [.text("late")], headDelay: .seconds(30)) }
        defer { server.stop() }
        let timeouts = HTTPTimeouts(connect: .seconds(10), firstByte: .milliseconds(300), total: .seconds(60))
        let error = await transportError {
            _ = try await CurlTransport().execute(request(server.baseURL + "/slow", timeouts: timeouts))
        }
        #expect(error == .timedOut(url: server.baseURL + "/slow", phase: .firstByte, after: .milliseconds(300)))
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }

    @Test("a stream that stalls past the total limit fails in the body with .timedOut(total)")
    func totalTimeout() async throws {
        // A synchronous handler answers from the connection thread: the head is not delayed by a busy task pool.
        let server = try LoopbackHTTPServer.synchronous { _ in
            ScriptedResponse(parts: [.text("partial"), .delay(.seconds(30)), .text("never")], framing: .chunked)
        }
        defer { server.stop() }
        let timeouts = HTTPTimeouts(connect: .seconds(10), firstByte: nil, total: .seconds(3))
        let response = try await CurlTransport().execute(request(server.baseURL + "/stall", timeouts: timeouts))
        var received = Data()
        let error = await transportError {
            for try await chunk in response.body { received.append(chunk) }
        }
        #expect(received == "partial".utf8Data)
        #expect(error == .timedOut(url: server.baseURL + "/stall", phase: .total, after: .seconds(3)))
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }

    @Test("a first-byte limit does not cut a body that stalls after the head")
    func firstByteLimitOnlyCoversTheHead() async throws {
        let release = ServerSignal()
        let server = try LoopbackHTTPServer.synchronous { _ in
            ScriptedResponse(parts: [.text("a"), .waitFor(release), .text("b")], framing: .chunked)
        }
        defer { server.stop() }
        // Generous: under a loaded machine the head itself can take a while; what matters is what follows it.
        let timeouts = HTTPTimeouts(connect: .seconds(10), firstByte: .seconds(2), total: .seconds(60))
        let response = try await CurlTransport().execute(request(server.baseURL + "/slow-body", timeouts: timeouts))
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == "a".utf8Data)
        // Stall well past the first-byte limit before the rest of the body comes.
        try await Task.sleep(for: .milliseconds(2500))
        release.fire()
        #expect(try await iterator.next() == "b".utf8Data)
        #expect(try await iterator.next() == nil)
    }

    @Test("a connection that never completes is .timedOut(connect)")
    func connectTimeout() async throws {
        let listener = FullBacklogListener()
        let url = "http://127.0.0.1:\(listener.port)/unreachable"
        let timeouts = HTTPTimeouts(connect: .milliseconds(400), firstByte: nil, total: .seconds(30))
        let error = await transportError { _ = try await CurlTransport().execute(request(url, timeouts: timeouts)) }
        #expect(error == .timedOut(url: url, phase: .connect, after: .milliseconds(400)))
        withExtendedLifetime(listener) {}
    }

    @Test("URLs that are not http(s) are .invalidURL")
    func invalidURL() async throws {
        let error = await transportError { _ = try await CurlTransport().execute(request("ftp://127.0.0.1/file?key=x")) }
        #expect(error == .invalidURL("ftp://127.0.0.1/file"))
    }
}
