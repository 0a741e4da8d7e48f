import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport concurrency and connection reuse")
struct CurlTransportConcurrencyTests {
    @Test("100 sequential requests reuse one keep-alive connection")
    func sequentialRequestsReuseConnections() async throws {
        let server = try LoopbackHTTPServer { _ in .json(#"{"ok":true}"#) }
        defer { server.stop() }
        let transport = CurlTransport()
        for _ in 0..<100 {
            let (response, _) = try await transport.send(TransportConformance.request(server.baseURL + "/ping"))
            #expect(response.status == 200)
        }
        #expect(server.requestCount == 100)
        #expect(server.connectionsAccepted <= 3)
    }

    @Test("concurrent bursts reuse connections across bursts")
    func burstsReuseConnections() async throws {
        let server = try LoopbackHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        let transport = CurlTransport(maxConnections: 16)
        for _ in 0..<5 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { _ = try await transport.send(TransportConformance.request(server.baseURL + "/burst")) }
                }
                try await group.waitForAll()
            }
        }
        #expect(server.requestCount == 40)
        #expect(server.connectionsAccepted <= 16)
    }
}
