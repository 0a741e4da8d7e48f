import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridTestSupport
import HybridTransport
import Synchronization
import Testing

/// One step of a JSON path used to edit test documents: a key or an index.
enum Step: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)
    init(stringLiteral value: String) { self = .key(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

extension JSONValue {
    /// Sets (or with nil removes) the value at `path`, creating nothing: the parents must exist.
    mutating func set(_ path: [Step], _ value: JSONValue?) {
        guard let first = path.first else {
            self = value ?? .null
            return
        }
        let rest = Array(path.dropFirst())
        switch (self, first) {
        case (.object(var members), .key(let key)):
            if rest.isEmpty {
                members[key] = value
            } else {
                var child = members[key] ?? .null
                child.set(rest, value)
                members[key] = child
            }
            self = .object(members)
        case (.array(var items), .index(let i)):
            if rest.isEmpty {
                if let value { items[i] = value } else { items.remove(at: i) }
            } else {
                items[i].set(rest, value)
            }
            self = .array(items)
        default:
            break
        }
    }

    var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try! encoder.encode(self)
    }
}

enum Fixtures {
    /// The bundled default config as a mutable JSON tree, its template files inlined as `hybrid config publish`
    /// sends them (an app resolves no template files).
    static var defaults: JSONValue {
        PromptFileResolver.bundled.inliningTemplateFiles(
            in: try! JSONDecoder().decode(JSONValue.self, from: HybridConfigDocument.bundledDefaultsJSON))
    }

    /// The defaults with `edit` applied, as bytes.
    static func config(_ edit: (inout JSONValue) -> Void = { _ in }) -> Data {
        var tree = defaults
        edit(&tree)
        return tree.data
    }

    /// The defaults at `version`, with a description naming it.
    static func config(version: Int) -> Data {
        config { tree in
            tree.set(["version"], .int(version))
            tree.set(["description"], .string("test config v\(version)"))
        }
    }

    static func bundled() -> ValidatedConfig { try! HybridConfigDocument.bundledDefaults() }

    /// A feature written as JSON text (a Firebase parameter's value), read by the one config reader.
    static func feature(json: String) throws -> FeatureConfig {
        let document = try ConfigValidator.decode(Data(#"{"version": 0, "models": {}, "features": {"f": "#.utf8) + Data(json.utf8) + Data("}}".utf8))
        return try #require(document.features["f"])
    }

    /// Issues of `data`, or an empty list when it loads.
    static func errors(_ data: Data, promptFiles: PromptFileResolver = .bundled) -> [ConfigIssue] {
        do {
            _ = try ConfigValidator.load(data, promptFiles: promptFiles)
            return []
        } catch {
            return error.issues
        }
    }
}

/// A scripted `HTTPTransport` for unit tests: answers from a handler and records every request.
final class FakeTransport: HTTPTransport {
    struct Reply: Sendable {
        var status: Int
        var headers: HTTPHeaders = HTTPHeaders()
        var chunks: [Data] = []
        /// Thrown after the chunks (a transfer failing midway).
        var failure: TransportError?

        static func body(_ data: Data, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: HTTPHeaders(headers), chunks: [data])
        }
    }

    private let handler: @Sendable (HTTPRequest) throws(TransportError) -> Reply
    private let recorded = Mutex<[HTTPRequest]>([])

    init(_ handler: @escaping @Sendable (HTTPRequest) throws(TransportError) -> Reply) {
        self.handler = handler
    }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        let reply = try handler(request)
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        for chunk in reply.chunks { continuation.yield(chunk) }
        continuation.finish(throwing: reply.failure)
        return HTTPResponse(status: reply.status, headers: reply.headers, body: HTTPBody(stream))
    }
}

/// A mutable payload an HTTP fake serves with a content-hash ETag, answering 304 to a matching If-None-Match.
final class ConfigServerState: Sendable {
    private let state = Mutex<(body: Data, headers: [(String, String)])>((Data(), []))

    func serve(_ body: Data, headers: [(String, String)] = []) {
        state.withLock { $0 = (body, headers) }
    }

    func reply(to request: HTTPRequest) -> FakeTransport.Reply {
        let (body, headers) = state.withLock { $0 }
        let etag = "\"\(body.count)-\(body.hashValue & 0xffff)\""
        if request.headers["If-None-Match"] == etag {
            return FakeTransport.Reply(status: 304, headers: HTTPHeaders([("ETag", etag)]))
        }
        return .body(body, headers: [("ETag", etag)] + headers)
    }
}
