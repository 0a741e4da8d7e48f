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

    @Test("HTTP chunks read at once reach the consumer as one body chunk, bytes intact")
    func chunksReadTogetherAreDeliveredTogether() async throws {
        // Twenty HTTP chunks in one send (the framing written by hand), as a server flushing a burst of SSE
        // events does: curl's write callback fires per HTTP chunk, the consumer should not pay per callback.
        let pieces = (0..<20).map { "data: event \($0)\n\n" }
        let framed = pieces.map { "\(String($0.utf8.count, radix: 16))\r\n\($0)\r\n" }.joined() + "0\r\n\r\n"
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(
                headers: [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked")],
                parts: [.text(framed)], framing: .closeDelimited)
        }
        defer { server.stop() }
        let response = try await CurlTransport().execute(TransportConformance.request(server.baseURL + "/burst"))
        var chunks: [Data] = []
        for try await chunk in response.body { chunks.append(chunk) }
        #expect(chunks.reduce(Data(), +) == Data(pieces.joined().utf8))
        #expect(chunks.count < pieces.count)
    }
}
