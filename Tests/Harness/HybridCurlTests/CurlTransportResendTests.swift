import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Synchronization
import Testing

/// libcurl re-sends a request on a fresh connection when a reused keep-alive connection dies before any answer
/// ("Connection died, retrying a fresh connect"). For a billed generation (a POST) that re-send is a request the
/// caller never counted; the transport refuses it and fails the transfer instead.
@Suite("CurlTransport re-sends")
struct CurlTransportResendTests {
    /// A server that answers the first request on each connection and hangs up on the second without a byte.
    private static func droppingServer() throws -> LoopbackHTTPServer {
        let perConnection = Mutex<[Int: Int]>([:])
        return try LoopbackHTTPServer { request in
            let index = perConnection.withLock { counts in
                counts[request.connectionNumber, default: 0] += 1
                return counts[request.connectionNumber]!
            }
            return index == 1 ? .json(#"{"ok":true}"#) : .hangUp
        }
    }

    @Test("a POST on a reused connection that dies is not sent again: one request on the wire, one failure")
    func postIsNotResent() async throws {
        let server = try Self.droppingServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL + "/v1/chat/completions"
        let post = TransportConformance.request(url, method: "POST", body: Data(#"{"prompt":"hi"}"#.utf8))

        let (first, _) = try await transport.send(post)
        #expect(first.status == 200)
        let error = await transportError { _ = try await transport.send(post) }
        guard case .failed(_, let detail)? = error else {
            Issue.record("expected .failed, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("not sent again"))
        // Two sends, two requests seen: nothing left the process that the caller did not see fail or succeed.
        #expect(server.requestCount == 2)
    }

    @Test("a GET may still be re-sent by curl on a fresh connection (idempotent, e.g. a config fetch)")
    func getIsResent() async throws {
        let server = try Self.droppingServer()
        defer { server.stop() }
        let transport = CurlTransport()
        let url = server.baseURL + "/config.json"
        #expect(try await transport.send(TransportConformance.request(url)).response.status == 200)
        #expect(try await transport.send(TransportConformance.request(url)).response.status == 200)
        #expect(server.requestCount == 3)
    }
}
