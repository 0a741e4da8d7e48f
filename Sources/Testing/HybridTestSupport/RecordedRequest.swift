public import Foundation

/// One request as the loopback server received it, byte-exact body included.
public struct RecordedRequest: Sendable {
    /// The method as sent, e.g. "POST".
    public var method: String
    /// The request target as sent: path plus query string, e.g. "/v1/models?key=abc".
    public var path: String
    /// Header fields in wire order, names as sent; look them up with `header(_:)`.
    public var headers: [(name: String, value: String)]
    /// The body after removing chunked framing, if any.
    public var body: Data
    /// Which accepted connection carried it (1 for the first), to check keep-alive reuse.
    public var connectionNumber: Int

    /// A request as recorded; tests normally read these from `LoopbackHTTPServer.requests` instead.
    public init(method: String, path: String, headers: [(name: String, value: String)], body: Data, connectionNumber: Int) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.connectionNumber = connectionNumber
    }

    /// The first value of the header named `name`, ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// `path` without the query string.
    public var pathWithoutQuery: String {
        String(path.prefix { $0 != "?" })
    }

    /// The body decoded as UTF-8 (lossy), for assertions on text payloads.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }
}
