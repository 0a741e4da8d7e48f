public import Foundation

/// Sends HTTP requests and streams response bodies: the seam between providers and the network.
///
/// Providers and the config fetcher depend on this protocol only, so every layer above is testable with a
/// scripted transport. `CurlTransport` (libcurl) is the harness's implementation, `URLSessionTransport` the one
/// apps use; both pass `TransportConformance` (HybridTestSupport), which states what an implementation must do.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns once the status line and headers have arrived.
    ///
    /// The body follows as chunks in the order they arrive on the wire; iterating it after the caller's task
    /// is cancelled, or dropping the stream, cancels the transfer. Errors are `TransportError`.
    func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

extension HTTPTransport {
    /// Sends `request` and collects the whole body (for small, non-streaming responses).
    package func send(_ request: HTTPRequest) async throws(TransportError) -> (response: HTTPResponse, body: Data) {
        let response = try await execute(request)
        var data = Data()
        do {
            for try await chunk in response.body {
                data.append(chunk)
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError.failed(url: request.url, detail: String(describing: error))
        }
        return (response, data)
    }
}

/// One HTTP request.
public struct HTTPRequest: Sendable {
    /// HTTP method, upper case (`GET`, `POST`).
    public var method: String
    /// Absolute URL with any query string.
    public var url: String
    /// Request headers, sent in order; API keys travel here and must never be logged.
    public var headers: HTTPHeaders
    /// Request body; nil sends none.
    public var body: Data?
    /// Connect, first-byte and total limits for this transfer.
    public var timeouts: HTTPTimeouts
    /// Responses with a longer body fail with `TransportError.bodyTooLarge`; nil means no limit.
    public var maxBodyBytes: Int?

    /// Creates a request; defaults are a `GET` with no body, default timeouts and no body-size limit.
    public init(
        method: String = "GET",
        url: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: Data? = nil,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        maxBodyBytes: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeouts = timeouts
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Time limits for one transfer. Each that is nil does not apply.
public struct HTTPTimeouts: Sendable, Hashable {
    /// Until the TCP (and TLS) connection is up.
    public var connect: Duration?
    /// From sending the request until the first byte of the response arrives (slow prompt processing shows here).
    public var firstByte: Duration?
    /// The whole transfer, body included.
    public var total: Duration?

    /// Creates limits; defaults are 10 s to connect, no first-byte limit and 300 s in total.
    public init(connect: Duration? = .seconds(10), firstByte: Duration? = nil, total: Duration? = .seconds(300)) {
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
    }
}

/// Response status and headers, with the body as a stream of chunks.
public struct HTTPResponse: Sendable {
    /// HTTP status code; non-2xx statuses are returned, not thrown.
    public var status: Int
    /// Response headers as received.
    public var headers: HTTPHeaders
    /// Chunks as they arrive. Throws `TransportError` if the transfer fails midway or the reading task is cancelled.
    public var body: HTTPBody

    /// Creates a response; transports and scripted test transports build these.
    public init(status: Int, headers: HTTPHeaders, body: HTTPBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Ordered header fields with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added or received; names keep their original case.
    package private(set) var fields: [Field]

    /// One header field as sent or received.
    public struct Field: Sendable, Hashable {
        /// Header name as given; lookups compare it case-insensitively.
        public var name: String
        /// Header value, verbatim.
        public var value: String
        /// Creates a field.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates headers from (name, value) pairs, kept in order; repeated names are kept.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Appends a field (several fields may share a name).
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    package mutating func replaceOrAdd(name: String, value: String) {
        fields.removeAll { Self.sameName($0.name, name) }
        fields.append(Field(name: name, value: value))
    }

    /// The first value of the field named `name`, ignoring case.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Field names are ASCII tokens (RFC 9110 §5.1), so ASCII case folding is enough; Foundation's
    /// `caseInsensitiveCompare` bridged through `NSString` on every lookup, several per request.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

/// Why a transfer failed.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL could not be parsed or uses a scheme the transport does not speak.
    case invalidURL(String)
    /// DNS, refused connection, TLS: nothing reached the server. `url` has no credentials.
    case connectionFailed(url: String, detail: String)
    /// A time limit ran out; `phase` says which.
    case timedOut(url: String, phase: TimeoutKind, after: Duration)
    /// The response body passed `maxBodyBytes`.
    case bodyTooLarge(url: String, limit: Int)
    /// The caller's task was cancelled or the body stream was dropped.
    case cancelled(url: String)
    /// Any other failure (connection reset mid-body, malformed HTTP); `detail` is curl's message.
    case failed(url: String, detail: String)

    /// Which time limit ran out.
    public enum TimeoutKind: String, Sendable, Equatable {
        case connect
        case firstByte = "first byte"
        case total
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .connectionFailed(let url, let detail): "could not connect to \(url): \(detail)"
        case .timedOut(let url, let phase, let after): "\(url): \(phase.rawValue) timeout after \(after)"
        case .bodyTooLarge(let url, let limit): "\(url): response body larger than the limit of \(limit) bytes"
        case .cancelled(let url): "\(url): cancelled"
        case .failed(let url, let detail): "\(url): \(detail)"
        }
    }
}
