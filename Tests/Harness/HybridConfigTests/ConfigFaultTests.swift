import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCurl
import HybridTestSupport
import HybridTransport
import Testing

/// Faults served over real sockets (LoopbackHTTPServer + CurlTransport): the config in force never changes and
/// the reason says exactly what went wrong.
@Suite("Config fetch faults over loopback")
struct ConfigFaultTests {
    static let good = Fixtures.config(version: 2)
    static let signer = ConfigSigner.generate()

    static let badPriority = Fixtures.config { tree in
        tree.set(["version"], 3)
        tree.set(["features", "summarize", "priority", 2], "gpt-5")
    }
    static let flipped: (body: Data, signature: String) = {
        var body = Fixtures.config(version: 3)
        let signature = (try? signer.sign(body)) ?? ""
        if let range = body.range(of: Data("SmolLM2-135M".utf8)) { body[range.lowerBound] ^= 0x20 }
        return (body, signature)
    }()
    static let lower = Fixtures.config(version: 1)
    static let huge = Data(repeating: UInt8(ascii: " "), count: 20 * 1024 * 1024)

    /// Runs on the server's connection thread (synchronous handler), so a busy Swift pool cannot delay answers.
    static func respond(to request: RecordedRequest) -> ScriptedResponse {
        switch request.pathWithoutQuery {
        case "/good.json":
            return .json(String(decoding: good, as: UTF8.self))
        case "/500.json":
            return .text(status: 500, "upstream exploded")
        case "/slow.json":
            // Headers and a first chunk arrive at once; the rest only after the client's total timeout.
            return ScriptedResponse(
                headers: [("Content-Type", "application/json")],
                parts: [.bytes(good.prefix(100)), .delay(.seconds(30)), .bytes(good.dropFirst(100))])
        case "/truncated.json":
            return ScriptedResponse(
                headers: [("Content-Type", "application/json"), ("Content-Length", String(good.count))],
                parts: [.bytes(good.prefix(good.count / 2)), .closeConnection])
        case "/huge.json":
            return .data(huge, contentType: "application/json")
        case "/notjson.json":
            return .json("<html>maintenance</html>")
        case "/badpriority.json":
            return .json(String(decoding: badPriority, as: UTF8.self))
        case "/flipped.json":
            return ScriptedResponse(
                headers: [("Content-Type", "application/json"), (ConfigFetcher.signatureHeader, flipped.signature)],
                parts: [.bytes(flipped.body)])
        case "/lower.json":
            return .json(String(decoding: lower, as: UTF8.self))
        default:
            return .text(status: 404, "no such fixture")
        }
    }

    /// Starts a server, makes the good v2 payload the config in force, then refreshes from `path`.
    func refresh(_ path: String, verifier: ConfigSignatureVerifier? = nil) async throws -> (ConfigResolution, String) {
        let server = try LoopbackHTTPServer.synchronous { Self.respond(to: $0) }
        defer { server.stop() }
        // Generous limits so a loaded 2-core machine passes; only the slow body (30 s) outlasts its 3 s total.
        let total: Duration = path == "/slow.json" ? .seconds(3) : .seconds(60)
        let fetcher = ConfigFetcher(
            transport: CurlTransport(),
            options: .init(timeouts: HTTPTimeouts(connect: .seconds(10), firstByte: nil, total: total)))
        let loader = ConfigLoader(bundled: Fixtures.bundled(), sourceURL: server.baseURL + path, fetcher: fetcher, verifier: verifier)
        let seeded = await loader.offer(
            .init(url: server.baseURL + "/good.json", status: 200, body: Self.good, etag: nil, signature: try Self.signer.sign(Self.good)))
        try #require(seeded.config.version == 2)
        let resolution = await loader.refresh()
        #expect(resolution.outcome == .rejected)
        #expect(resolution.config.version == 2)
        #expect(resolution.config.description == "test config v2")
        #expect(resolution.source == .remote(url: server.baseURL + "/good.json"))
        return (resolution, server.baseURL + path)
    }

    @Test func serverError500() async throws {
        let (r, url) = try await refresh("/500.json")
        #expect(r.reasonNewOneRejected == .httpStatus(url: url, status: 500))
    }

    @Test func slowBodyPastTheTimeout() async throws {
        let (r, url) = try await refresh("/slow.json")
        guard let error = r.reasonNewOneRejected, error.kind == .fetchFailed, let failedURL = error.url,
            let reason = error.reason
        else {
            Issue.record("expected fetchFailed, got \(String(describing: r.reasonNewOneRejected))")
            return
        }
        #expect(failedURL == url)
        #expect(reason.contains("total timeout"))
    }

    @Test func truncatedBody() async throws {
        let (r, url) = try await refresh("/truncated.json")
        guard let error = r.reasonNewOneRejected, error.kind == .fetchFailed, let failedURL = error.url,
            let reason = error.reason
        else {
            Issue.record("expected fetchFailed, got \(String(describing: r.reasonNewOneRejected))")
            return
        }
        #expect(failedURL == url)
        // curl: "transfer closed with N bytes remaining to read"; the fetcher's own check: "truncated body".
        #expect(reason.contains("bytes remaining") || reason.contains("truncated body"))
    }

    @Test func twentyMegabytesOverTheLimit() async throws {
        let (r, url) = try await refresh("/huge.json")
        #expect(r.reasonNewOneRejected == .bodyTooLarge(url: url, limit: 2 * 1024 * 1024))
    }

    @Test func invalidJSON() async throws {
        let (r, _) = try await refresh("/notjson.json")
        guard r.reasonNewOneRejected?.kind == .notJSON else {
            Issue.record("expected notJSON, got \(String(describing: r.reasonNewOneRejected))")
            return
        }
    }

    @Test func validJSONWithABadPriorityOrder() async throws {
        let (r, _) = try await refresh("/badpriority.json")
        #expect(r.reasonNewOneRejected?.issues.map(\.path) == ["features.summarize.priority[2]"])
        #expect(r.reasonNewOneRejected?.issues.first?.message.contains("\"gpt-5\" is not defined in models") == true)
    }

    @Test func signedPayloadWithOneByteFlipped() async throws {
        let verifier = try ConfigSignatureVerifier(publicKeyBase64: Self.signer.publicKeyBase64)
        let (r, url) = try await refresh("/flipped.json", verifier: verifier)
        guard let error = r.reasonNewOneRejected, error.kind == .signatureInvalid, let source = error.source,
            let reason = error.reason
        else {
            Issue.record("expected signatureInvalid, got \(String(describing: r.reasonNewOneRejected))")
            return
        }
        #expect(source == url)
        #expect(reason.contains("does not match"))
    }

    @Test func lowerVersion() async throws {
        let (r, _) = try await refresh("/lower.json")
        #expect(r.reasonNewOneRejected == .versionRollback(offered: 1, inUse: 2))
    }
}
