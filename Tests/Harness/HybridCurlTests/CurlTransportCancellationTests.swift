import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport cancellation")
struct CurlTransportCancellationTests {
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
            let response = try await transport.execute(TransportConformance.request(server.baseURL + "/break"))
            for try await chunk in response.body {
                #expect(chunk == "first".utf8Data)
                break
            }
        }
        #expect(await server.waitUntil { $0.abortedResponses == 1 })
    }
}
