import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport streaming")
struct CurlTransportStreamingTests {
    @Test("execute returns after the head, before any body byte is sent")
    func executeReturnsOnHeaders() async throws {
        let release = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(headers: [("X-Head", "early")], parts: [.waitFor(release), .text("body")], framing: .chunked)
        }
        defer { server.stop() }
        let transport = CurlTransport()

        let response = try await transport.execute(request(server.baseURL + "/head-first"))
        // The server cannot send the body before the signal fires, so the head arrived on its own.
        #expect(!release.isFired)
        #expect(response.status == 200)
        #expect(response.headers["x-head"] == "early")
        release.fire()
        var body = Data()
        for try await chunk in response.body { body.append(chunk) }
        #expect(body == "body".utf8Data)
    }

    @Test("chunks arrive one by one: chunk 1 is seen while the server still withholds chunk 2")
    func chunksArriveIncrementally() async throws {
        let release = ServerSignal()
        let server = try LoopbackHTTPServer { _ in
            .sse(events: ["data: one\n\n"]).appending([.waitFor(release), .text("data: two\n\n")])
        }
        defer { server.stop() }
        let transport = CurlTransport()

        let response = try await transport.execute(request(server.baseURL + "/stream"))
        var iterator = response.body.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == "data: one\n\n".utf8Data)
        #expect(!release.isFired)
        release.fire()
        var rest = Data()
        while let chunk = try await iterator.next() { rest.append(chunk) }
        #expect(rest == "data: two\n\n".utf8Data)
    }

    @Test("a close-delimited body is read to the end")
    func closeDelimitedBody() async throws {
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("until "), .text("close")], framing: .closeDelimited)
        }
        defer { server.stop() }
        let (response, body) = try await CurlTransport().send(request(server.baseURL + "/eof"))
        #expect(response.status == 200)
        #expect(body == "until close".utf8Data)
    }

    @Test("non-2xx statuses are returned with their body, not thrown")
    func errorStatusPassesThrough() async throws {
        let server = try LoopbackHTTPServer { _ in .json(status: 503, #"{"error":"overloaded"}"#) }
        defer { server.stop() }
        let (response, body) = try await CurlTransport().send(request(server.baseURL + "/busy"))
        #expect(response.status == 503)
        #expect(body == #"{"error":"overloaded"}"#.utf8Data)
    }

    @Test("redirects are not followed")
    func redirectsNotFollowed() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/old" ? ScriptedResponse(status: 302, headers: [("Location", "/new")]) : .text("new")
        }
        defer { server.stop() }
        let (response, _) = try await CurlTransport().send(request(server.baseURL + "/old"))
        #expect(response.status == 302)
        #expect(response.headers["location"] == "/new")
        #expect(server.requests.map(\.path) == ["/old"])
    }
}

extension ScriptedResponse {
    /// This response with `parts` added at the end.
    func appending(_ more: [Part]) -> ScriptedResponse {
        var copy = self
        copy.parts += more
        return copy
    }
}
