import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport streaming")
struct CurlTransportStreamingTests {
    @Test("a close-delimited body is read to the end")
    func closeDelimitedBody() async throws {
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("until "), .text("close")], framing: .closeDelimited)
        }
        defer { server.stop() }
        let (response, body) = try await CurlTransport().send(TransportConformance.request(server.baseURL + "/eof"))
        #expect(response.status == 200)
        #expect(body == "until close".utf8Data)
    }
}
