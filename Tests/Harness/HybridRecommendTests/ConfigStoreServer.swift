import Foundation
import HybridTestSupport
import Synchronization

/// A loopback config host: stores PUT bodies per path and serves them with ETags, honouring `If-Match`,
/// `If-None-Match: *` (412 on mismatch) and `If-None-Match: ETAG` (304), and the `X-Hybrid-Signature` header.
final class ConfigStoreServer: Sendable {
    struct Stored: Sendable {
        var body: Data
        var etag: String
        var signature: String?
    }

    /// Shared with the server's handler, which must not capture `self` before init ends.
    private final class State: Sendable {
        let value = Mutex<(files: [String: Stored], next: Int, puts: Int, refused: Int)>(([:], 1, 0, 0))
        func withLock<T>(_ body: (inout (files: [String: Stored], next: Int, puts: Int, refused: Int)) -> T) -> T {
            value.withLock { body(&$0) }
        }
    }

    private let state = State()
    private let server: LoopbackHTTPServer

    init() throws {
        let state = self.state
        server = try LoopbackHTTPServer { request in
            let path = request.pathWithoutQuery
            switch request.method {
            case "GET":
                guard let stored = state.withLock({ $0.files[path] }) else { return .text(status: 404, "not found") }
                if request.header("If-None-Match") == stored.etag {
                    return ScriptedResponse(status: 304, headers: [("ETag", stored.etag)])
                }
                var headers = [("ETag", stored.etag)]
                if let signature = stored.signature { headers.append(("X-Hybrid-Signature", signature)) }
                return .data(stored.body, contentType: "application/json").adding(headers)
            case "PUT":
                return state.withLock { s -> ScriptedResponse in
                    let existing = s.files[path]
                    let ifMatch = request.header("If-Match")
                    let ifNoneMatch = request.header("If-None-Match")
                    let refused: Bool =
                        if let ifMatch { ifMatch == "*" ? existing == nil : existing?.etag != ifMatch }
                        else if ifNoneMatch == "*" { existing != nil }
                        else { false }
                    if refused {
                        s.refused += 1
                        return ScriptedResponse(status: 412, headers: existing.map { [("ETag", $0.etag)] } ?? [])
                    }
                    let etag = "\"v\(s.next)\""
                    s.next += 1
                    s.puts += 1
                    s.files[path] = Stored(body: request.body, etag: etag, signature: request.header("X-Hybrid-Signature"))
                    return ScriptedResponse(status: existing == nil ? 201 : 204, headers: [("ETag", etag)])
                }
            default:
                return .text(status: 405, "method not allowed")
            }
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { server.baseURL + path }

    func stored(_ path: String) -> Stored? { state.withLock { $0.files[path] } }

    /// Replaces a file as another publisher would, behind this test's back.
    func overwrite(_ path: String, body: Data) {
        state.withLock { s in
            s.files[path] = Stored(body: body, etag: "\"v\(s.next)\"", signature: nil)
            s.next += 1
        }
    }

    var successfulPuts: Int { state.withLock { $0.puts } }
    var refusedPuts: Int { state.withLock { $0.refused } }
    var requestCount: Int { server.requestCount }

    func stop() { server.stop() }
}

extension ScriptedResponse {
    func adding(_ extra: [(String, String)]) -> ScriptedResponse {
        var copy = self
        copy.headers += extra.map { (name: $0.0, value: $0.1) }
        return copy
    }
}
