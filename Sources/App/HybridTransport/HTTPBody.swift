public import Foundation

/// A response body: chunks in wire order, ending with nil when the body is complete.
///
/// Not an `AsyncThrowingStream`: the stock stream ends with nil when the consuming task is cancelled between two
/// elements, which makes a cut-off body look complete (a truncated JSON document, an SSE stream without its end).
/// Iterating this from a cancelled task throws `TransportError.cancelled` instead. Dropping the body and every
/// iterator cancels the transfer.
public struct HTTPBody: AsyncSequence, Sendable {

    private enum Source: Sendable {
        case channel(BodyReader)
        case stream(AsyncThrowingStream<Data, any Error>)
    }

    private let source: Source

    /// A body fed by `CurlTransport`'s loop thread.
    package init(channel: BodyChannel) {
        source = .channel(BodyReader(channel: channel))
    }

    /// A body from any stream of chunks (scripted transports in tests, bodies built in memory).
    public init(_ stream: AsyncThrowingStream<Data, any Error>) {
        source = .stream(stream)
    }

    /// A body that is already complete.
    public init(_ data: Data) {
        self.init(AsyncThrowingStream { continuation in
            if !data.isEmpty { continuation.yield(data) }
            continuation.finish()
        })
    }

    public func makeAsyncIterator() -> Iterator {
        switch source {
        case .channel(let reader): Iterator(reader: reader, stream: nil)
        case .stream(let stream): Iterator(reader: nil, stream: stream.makeAsyncIterator())
        }
    }

    /// Reads the next chunk; nil at the end of the body.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: BodyReader?
        fileprivate var stream: AsyncThrowingStream<Data, any Error>.AsyncIterator?

        public mutating func next() async throws -> Data? {
            if let reader { return try await reader.channel.next() }
            return try await stream?.next()
        }
    }
}

/// Lives as long as the body or an iterator holds it; its deinit is the "body dropped" signal that aborts the
/// transfer.
final class BodyReader: Sendable {
    let channel: BodyChannel
    init(channel: BodyChannel) { self.channel = channel }
    deinit { channel.cancel() }
}
