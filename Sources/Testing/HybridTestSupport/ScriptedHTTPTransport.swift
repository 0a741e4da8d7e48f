public import Foundation
public import HybridTransport

/// An `HTTPTransport` that records every request and answers from a script, without sockets.
///
/// Each `execute` takes the next `ScriptedHTTPResponse`; when the script runs out, `execute` fails with
/// `TransportError.failed`. Body chunks are delivered exactly as given (use `ScriptedHTTPResponse.split`
/// to cut a fixture at chosen byte offsets), optionally with a delay before each one, so tests can exercise
/// parsers on any chunking of the same bytes.
public actor ScriptedHTTPTransport: HTTPTransport {
    private var script: [ScriptedHTTPResponse]
    /// Requests in the order they were executed.
    public private(set) var requests: [HTTPRequest] = []
    /// How many response bodies the consumer dropped or cancelled before they ended (delayed bodies only).
    public private(set) var cancelledBodies = 0

    /// A transport that answers successive requests with `script`, in order.
    public init(_ script: [ScriptedHTTPResponse]) {
        self.script = script
    }

    /// A transport that answers one request.
    public init(_ response: ScriptedHTTPResponse) {
        self.init([response])
    }

    /// Records `request` and plays the next scripted response.
    public func execute(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        requests.append(request)
        guard !script.isEmpty else {
            throw .failed(url: request.url, detail: "ScriptedHTTPTransport: no scripted response left")
        }
        let scripted = script.removeFirst()
        if let delay = scripted.headerDelay {
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw .cancelled(url: request.url)
            }
        }
        if let failure = scripted.failure { throw failure }
        let body = scripted.makeBody(url: request.url) { [weak self] in
            Task { await self?.noteCancelledBody() }
        }
        return HTTPResponse(status: scripted.status, headers: scripted.headers, body: HTTPBody(body))
    }

    private func noteCancelledBody() {
        cancelledBodies += 1
    }
}

/// One scripted answer: a status, headers and body chunks, or a transport failure.
public struct ScriptedHTTPResponse: Sendable {
    /// The HTTP status `execute` returns.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body, chunk by chunk, exactly as the body stream will deliver it.
    public var chunks: [Data]
    /// Waited before each chunk is delivered (nil: all chunks are available at once).
    public var chunkDelay: Duration?
    /// Waited before `execute` returns (simulates slow headers).
    public var headerDelay: Duration?
    /// Thrown by `execute` instead of answering.
    public var failure: TransportError?
    /// Thrown by the body stream after the last chunk (simulates a connection reset mid-body).
    public var bodyFailure: TransportError?

    /// A response with the given chunks, delivered in order.
    public init(
        status: Int = 200,
        headers: HTTPHeaders = HTTPHeaders(),
        chunks: [Data] = [],
        chunkDelay: Duration? = nil,
        headerDelay: Duration? = nil,
        bodyFailure: TransportError? = nil
    ) {
        self.status = status
        self.headers = headers
        self.chunks = chunks
        self.chunkDelay = chunkDelay
        self.headerDelay = headerDelay
        self.bodyFailure = bodyFailure
    }

    /// A response whose body is `body`, cut at `offsets` (byte positions, any order; out-of-range ones ignored).
    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data, splitAt offsets: [Int] = [], chunkDelay: Duration? = nil) {
        self.init(status: status, headers: headers, chunks: Self.split(body, at: offsets), chunkDelay: chunkDelay)
    }

    /// A transport failure instead of a response.
    public static func failing(_ error: TransportError) -> ScriptedHTTPResponse {
        var response = ScriptedHTTPResponse()
        response.failure = error
        return response
    }

    /// Cuts `data` at the given byte offsets; every chunk is non-empty and the chunks concatenate to `data`.
    public static func split(_ data: Data, at offsets: [Int]) -> [Data] {
        let bytes = [UInt8](data)
        let cuts = Set(offsets.filter { $0 > 0 && $0 < bytes.count }).sorted()
        var chunks: [Data] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut > start {
            chunks.append(Data(bytes[start..<cut]))
            start = cut
        }
        return chunks
    }

    /// Cuts `data` into chunks of `size` bytes (the last may be shorter).
    public static func split(_ data: Data, every size: Int) -> [Data] {
        guard size > 0 else { return [data] }
        return split(data, at: Array(stride(from: size, to: data.count, by: size)))
    }

    func makeBody(url: String, onCancel: @escaping @Sendable () -> Void) -> AsyncThrowingStream<Data, any Error> {
        let chunks = chunks
        let chunkDelay = chunkDelay
        let bodyFailure = bodyFailure
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        guard let chunkDelay else {
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish(throwing: bodyFailure)
            return stream
        }
        let task = Task {
            for chunk in chunks {
                do {
                    try await Task.sleep(for: chunkDelay)
                } catch {
                    continuation.finish(throwing: TransportError.cancelled(url: url))
                    return
                }
                continuation.yield(chunk)
            }
            continuation.finish(throwing: bodyFailure)
        }
        continuation.onTermination = { termination in
            task.cancel()
            if case .cancelled = termination { onCancel() }
        }
        return stream
    }
}
