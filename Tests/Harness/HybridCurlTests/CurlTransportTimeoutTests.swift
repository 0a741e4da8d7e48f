import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport timeouts and connection failures")
struct CurlTransportTimeoutTests {
    @Test("a first-byte limit does not cut a body that stalls after the head")
    func firstByteLimitOnlyCoversTheHead() async throws {
        let release = ServerSignal()
        let server = try LoopbackHTTPServer.synchronous { _ in
            ScriptedResponse(parts: [.text("a"), .waitFor(release), .text("b")], framing: .chunked)
        }
        defer { server.stop() }
        // Generous: under a loaded machine the head itself can take a while; what matters is what follows it.
        let timeouts = HTTPTimeouts(connect: .seconds(10), firstByte: .seconds(2), total: .seconds(60))
        let response = try await CurlTransport().execute(TransportConformance.request(server.baseURL + "/slow-body", timeouts: timeouts))
        var iterator = response.body.makeAsyncIterator()
        #expect(try await iterator.next() == "a".utf8Data)
        // Stall well past the first-byte limit before the rest of the body comes.
        try await Task.sleep(for: .milliseconds(2500))
        release.fire()
        #expect(try await iterator.next() == "b".utf8Data)
        #expect(try await iterator.next() == nil)
    }
}
