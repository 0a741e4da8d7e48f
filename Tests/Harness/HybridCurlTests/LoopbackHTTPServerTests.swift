import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("LoopbackHTTPServer")
struct LoopbackHTTPServerTests {
    @Test("binds 127.0.0.1 on an OS-chosen port")
    func bindsLoopback() throws {
        let server = try LoopbackHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
    }

    @Test("keeps connections alive across requests and records them in order")
    func keepAlive() async throws {
        let server = try LoopbackHTTPServer { request in .text(request.path) }
        defer { server.stop() }
        let transport = CurlTransport()
        for index in 0..<5 {
            _ = try await transport.send(TransportConformance.request(server.baseURL + "/n/\(index)"))
        }
        #expect(server.requests.map(\.path) == (0..<5).map { "/n/\($0)" })
        #expect(Set(server.requests.map(\.connectionNumber)) == [1])
        #expect(server.connectionsAccepted == 1)
    }

    @Test("Connection: close from the client ends the connection after the response")
    func clientConnectionClose() async throws {
        let server = try LoopbackHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        let transport = CurlTransport()
        for _ in 0..<3 {
            _ = try await transport.send(TransportConformance.request(server.baseURL + "/c", headers: ["Connection": "close"]))
        }
        #expect(server.connectionsAccepted == 3)
    }

    @Test("a scripted delay holds the next part back (ordering, not timing)")
    func delaysOrderParts() async throws {
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("a"), .delay(.milliseconds(50)), .text("b")], framing: .chunked)
        }
        defer { server.stop() }
        let response = try await CurlTransport().execute(TransportConformance.request(server.baseURL + "/d"))
        var chunks: [Data] = []
        for try await chunk in response.body { chunks.append(chunk) }
        // The delay forces two separate TCP writes, so curl delivers two chunks.
        #expect(chunks == ["a".utf8Data, "b".utf8Data])
    }

    @Test("stop() returns promptly even with a response stalled on a signal")
    func stopDoesNotHang() async throws {
        let never = ServerSignal()
        let server = try LoopbackHTTPServer { _ in ScriptedResponse(parts: [.text("x"), .waitFor(never)], framing: .chunked) }
        let transport = CurlTransport()
        let response = try await transport.execute(TransportConformance.request(server.baseURL + "/stalled"))
        server.stop()
        // The server closes the connection mid-body: the client sees an error, not a clean end.
        let error = await transportError { for try await _ in response.body {} }
        #expect(error != nil)
        // A stopped server does not count its own shutdown as a client hang-up.
        #expect(server.abortedResponses == 0)
    }
}
