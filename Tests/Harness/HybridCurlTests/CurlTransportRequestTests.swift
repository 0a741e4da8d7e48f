import Foundation
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

@Suite("CurlTransport request encoding")
struct CurlTransportRequestTests {
    @Test("request and response headers round trip; lookup ignores case; no Expect header is sent")
    func headersRoundTrip() async throws {
        let server = try LoopbackHTTPServer { request in
            .text("ok", headers: [("X-Echo", request.header("x-custom-thing") ?? "missing"), ("X-Multi", "1"), ("x-multi", "2")])
        }
        defer { server.stop() }
        let headers: HTTPHeaders = ["X-Custom-Thing": "abc 123", "Authorization": "Bearer test-token"]
        let (response, _) = try await CurlTransport().send(TransportConformance.request(server.baseURL + "/h", headers: headers))
        #expect(response.headers["X-ECHO"] == "abc 123")
        #expect(response.headers.fields.filter { $0.name.lowercased() == "x-multi" }.map(\.value) == ["1", "2"])
        let received = try #require(server.requests.first)
        #expect(received.header("AUTHORIZATION") == "Bearer test-token")
        #expect(received.header("expect") == nil)
    }

    @Test("a POST body arrives byte-exact, binary and large")
    func postBodyByteExact() async throws {
        let server = try LoopbackHTTPServer { request in .text("\(request.body.count)") }
        defer { server.stop() }
        var generator = SystemRandomNumberGenerator()
        let payload = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0, 0, 13, 10])
        let (_, body) = try await CurlTransport().send(
            TransportConformance.request(server.baseURL + "/upload", method: "POST", headers: ["Content-Type": "application/octet-stream"], body: payload)
        )
        #expect(body == "\(payload.count)".utf8Data)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.body == payload)
        #expect(received.header("content-length") == "\(payload.count)")
    }

    @Test("methods: PUT with a body, DELETE and HEAD without, an empty POST")
    func methods() async throws {
        let server = try LoopbackHTTPServer { request in .text("\(request.method) \(request.bodyText)") }
        defer { server.stop() }
        let transport = CurlTransport()
        let (_, put) = try await transport.send(TransportConformance.request(server.baseURL + "/r", method: "PUT", body: "new".utf8Data))
        #expect(put == "PUT new".utf8Data)
        let (_, delete) = try await transport.send(TransportConformance.request(server.baseURL + "/r", method: "DELETE"))
        #expect(delete == "DELETE ".utf8Data)
        let (head, headBody) = try await transport.send(TransportConformance.request(server.baseURL + "/r", method: "HEAD"))
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "5")
        #expect(headBody.isEmpty)
        let (_, post) = try await transport.send(TransportConformance.request(server.baseURL + "/r", method: "POST", body: Data()))
        #expect(post == "POST ".utf8Data)
        #expect(server.requests.map(\.method) == ["PUT", "DELETE", "HEAD", "POST"])
        #expect(server.requests.last?.header("content-length") == "0")
    }

    @Test("a header value with a line break is refused without echoing the value")
    func headerInjectionRefused() async throws {
        let server = try LoopbackHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        let headers: HTTPHeaders = ["Authorization": "Bearer SECRET\r\nX-Evil: 1"]
        let error = await transportError { _ = try await CurlTransport().execute(TransportConformance.request(server.baseURL + "/x", headers: headers)) }
        let described = try #require(error.map { String(describing: $0) })
        #expect(described.contains("Authorization"))
        #expect(!described.contains("SECRET"))
        #expect(server.requestCount == 0)
    }

    @Test("ASCII fast paths keep the Unicode rules: any line break is refused, method and scheme ignore case")
    func byteLevelChecksMatchUnicodeRules() async throws {
        let server = try LoopbackHTTPServer { request in .text(request.method) }
        defer { server.stop() }
        let transport = CurlTransport()
        for value in ["a\u{2028}b", "a\u{0B}b", "caf\u{E9}\u{85}"] {
            let error = await transportError {
                _ = try await transport.execute(TransportConformance.request(server.baseURL + "/x", headers: ["X-Note": value]))
            }
            #expect(error != nil, "a header holding \(value.unicodeScalars.map { String($0.value, radix: 16) }) was sent")
        }
        #expect(server.requestCount == 0)
        let upperScheme = "HTTP" + server.baseURL.dropFirst(4) + "/m"
        let (_, body) = try await transport.send(TransportConformance.request(upperScheme, method: "post", headers: ["X-Note": "café"], body: Data("b".utf8)))
        #expect(body == "POST".utf8Data)
        let refused = await transportError { _ = try await transport.execute(TransportConformance.request("ftp://127.0.0.1/x")) }
        #expect(refused.map { String(describing: $0) }?.contains("ftp") == true)
    }

    @Test("the query string reaches the server intact")
    func queryStringSent() async throws {
        let server = try LoopbackHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        _ = try await CurlTransport().send(TransportConformance.request(server.baseURL + "/v1/generate?key=abc&alt=sse"))
        #expect(server.requests.first?.path == "/v1/generate?key=abc&alt=sse")
        #expect(server.requests.first?.pathWithoutQuery == "/v1/generate")
    }
}
