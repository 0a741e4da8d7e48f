/// The behaviours `TransportConformance` checks, one case per check (use `allCases` as test arguments).
public enum TransportConformanceCheck: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `execute` returns at the response head, before the server sends any body byte.
    case headBeforeBody = "head before body"
    /// Each chunk reaches the reader while the server still withholds the next, in the order sent.
    case chunksInOrderAsSent = "chunks in order as sent"
    /// A stream with 100 ms between events is not buffered: its chunks arrive spread out over time.
    case slowStreamTiming = "slow stream timing"
    /// A POST's method, headers and binary body arrive byte-exact; the query string is sent; redirects not followed.
    case requestRoundTrip = "request round trip"
    /// 4xx and 5xx responses are returned with their bodies, not thrown.
    case errorStatusBodies = "4xx/5xx bodies"
    /// Cancelling the task waiting in `execute` throws `.cancelled` and closes the connection.
    case cancelBeforeHead = "cancel before head"
    /// Cancelling the task reading the body throws `.cancelled` and closes the connection.
    case cancelMidBody = "cancel mid-body"
    /// A reader cancelled between two chunks gets `.cancelled`, never a silent end that looks like a whole body.
    case cancelBetweenChunks = "cancel between chunks"
    /// Dropping an unread body closes the connection.
    case droppedBodyCancels = "dropped body cancels"
    /// A connection that never completes fails with `.timedOut(connect)`.
    case connectTimeout = "connect timeout"
    /// No response byte before the first-byte limit fails with `.timedOut(firstByte)` and hangs up.
    case firstByteTimeout = "first-byte timeout"
    /// A body that stalls past the total limit fails with `.timedOut(total)` and hangs up.
    case totalTimeout = "total timeout"
    /// Bodies over `maxBodyBytes` fail with `.bodyTooLarge` (declared or counted); one exactly at it is whole.
    case bodyOverLimit = "body over the limit"
    /// Sequential requests reuse one keep-alive connection.
    case keepAliveReuse = "keep-alive reuse"
    /// 200 concurrent requests all complete, each with its own body.
    case concurrentRequests = "200 concurrent requests"
    /// A server closing the connection mid-body is a `.failed` error, not a short body.
    case serverClosesMidBody = "server closes mid-body"
    /// A refused connection is `.connectionFailed` with the query string (and any key in it) removed.
    case refusedConnectionRedacted = "refused connection, redacted URL"
    /// URLs that are not http(s) are `.invalidURL`.
    case nonHTTPURLRejected = "non-HTTP URL rejected"

    public var description: String { rawValue }
}
