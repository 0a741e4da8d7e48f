import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport body limits and truncation")
struct CurlTransportLimitsTests {
    @Test("a Content-Length over maxBodyBytes fails execute with .bodyTooLarge before any body is read")
    func contentLengthOverLimit() async throws {
        let server = try LoopbackHTTPServer { _ in .data(Data(repeating: 7, count: 5000)) }
        defer { server.stop() }
        let url = server.baseURL + "/big"
        let error = await transportError { _ = try await CurlTransport().execute(request(url, maxBodyBytes: 1000)) }
        #expect(error == .bodyTooLarge(url: url, limit: 1000))
    }

    @Test("a chunked body growing past maxBodyBytes fails the stream with .bodyTooLarge")
    func chunkedOverLimit() async throws {
        let chunk = Data(repeating: 1, count: 300)
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: Array(repeating: .bytes(chunk), count: 10), framing: .chunked)
        }
        defer { server.stop() }
        let url = server.baseURL + "/growing"
        let response = try await CurlTransport().execute(request(url, maxBodyBytes: 1000))
        var received = 0
        let error = await transportError {
            for try await piece in response.body { received += piece.count }
        }
        #expect(error == .bodyTooLarge(url: url, limit: 1000))
        #expect(received <= 1000)
    }

    @Test("a body exactly at maxBodyBytes is delivered whole")
    func bodyAtLimit() async throws {
        let payload = Data(repeating: 9, count: 1000)
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.bytes(payload.prefix(400)), .bytes(payload.suffix(600))], framing: .chunked)
        }
        defer { server.stop() }
        let (_, body) = try await CurlTransport().send(request(server.baseURL + "/exact", maxBodyBytes: 1000))
        #expect(body == payload)
    }

    @Test("a body cut short of its Content-Length is a transport error, not a short body")
    func truncatedContentLength() async throws {
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(headers: [("Content-Length", "100")], parts: [.text("only this"), .closeConnection])
        }
        defer { server.stop() }
        let url = server.baseURL + "/cut"
        let error = await transportError { _ = try await CurlTransport().send(request(url)) }
        guard case .failed(let reported, _) = error else {
            Issue.record("expected .failed, got \(String(describing: error))")
            return
        }
        #expect(reported == url)
    }

    @Test("a chunked body closed before its last chunk is a transport error")
    func truncatedChunked() async throws {
        let server = try LoopbackHTTPServer { _ in
            ScriptedResponse(parts: [.text("data: one\n\n"), .closeConnection], framing: .chunked)
        }
        defer { server.stop() }
        let url = server.baseURL + "/cut-stream"
        let response = try await CurlTransport().execute(request(url))
        var received = Data()
        let error = await transportError {
            for try await chunk in response.body { received.append(chunk) }
        }
        #expect(received == "data: one\n\n".utf8Data)
        guard case .failed = error else {
            Issue.record("expected .failed, got \(String(describing: error))")
            return
        }
    }
}
