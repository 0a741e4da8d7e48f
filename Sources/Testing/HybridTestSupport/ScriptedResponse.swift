public import Foundation

/// What the loopback server sends back for one request: status, headers and a script of body parts.
///
/// Parts are written in order; each `.bytes` part is flushed to the socket at once (as its own chunk under
/// `.chunked` framing), so tests can observe streaming, stalls and truncation exactly.
public struct ScriptedResponse: Sendable {
    /// One step of the response body script.
    public enum Part: Sendable {
        /// Bytes written (and flushed) as they are.
        case bytes(Data)
        /// A pause before the next part.
        case delay(Duration)
        /// Stalls until the test fires the signal (or the client hangs up).
        case waitFor(ServerSignal)
        /// Closes the connection right here, leaving the body truncated.
        case closeConnection

        /// UTF-8 text as bytes.
        public static func text(_ string: String) -> Part { .bytes(Data(string.utf8)) }
    }

    /// How the body length is conveyed.
    public enum Framing: Sendable {
        /// `Content-Length` is the sum of all `.bytes` parts unless `headers` already carries one (which may lie).
        case contentLength
        /// `Transfer-Encoding: chunked`, one chunk per `.bytes` part.
        case chunked
        /// No length: the body ends when the server closes the connection.
        case closeDelimited
    }

    /// The status code, sent as is (any value, 1xx excepted).
    public var status: Int
    /// The reason phrase after the status code.
    public var reason: String
    /// Header fields in order; framing headers (`Content-Length`, `Transfer-Encoding`) are added unless present.
    public var headers: [(name: String, value: String)]
    /// The body script, played in order.
    public var parts: [Part]
    /// How the body length is conveyed.
    public var framing: Framing
    /// A pause before the status line: the client sees no byte at all (a slow first token, a hung upstream).
    public var headDelay: Duration?
    /// Close the connection after reading the request, without a byte of answer (a server dropping a
    /// keep-alive connection, a crashed upstream).
    public var hangsUp = false

    /// Reads the request, then closes the connection without answering.
    public static var hangUp: ScriptedResponse {
        var response = ScriptedResponse()
        response.hangsUp = true
        return response
    }

    /// A response; `reason` defaults to the standard phrase for `status`.
    public init(
        status: Int = 200,
        reason: String? = nil,
        headers: [(name: String, value: String)] = [],
        parts: [Part] = [],
        framing: Framing = .contentLength,
        headDelay: Duration? = nil
    ) {
        self.status = status
        self.reason = reason ?? Self.standardReason(status)
        self.headers = headers
        self.parts = parts
        self.framing = framing
        self.headDelay = headDelay
    }

    /// A JSON body (`Content-Type: application/json`) sent in one piece.
    public static func json(status: Int = 200, _ body: String, headers: [(name: String, value: String)] = []) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "application/json")] + headers, parts: [.text(body)])
    }

    /// A plain-text body sent in one piece.
    public static func text(status: Int = 200, _ body: String, headers: [(name: String, value: String)] = []) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, parts: [.text(body)])
    }

    /// Raw bytes sent in one piece.
    public static func data(status: Int = 200, _ body: Data, contentType: String = "application/octet-stream") -> ScriptedResponse {
        ScriptedResponse(status: status, headers: [("Content-Type", contentType)], parts: [.bytes(body)])
    }

    /// A server-sent-events stream: each element of `events` is written verbatim as its own chunk (include the
    /// `data: …\n\n` framing yourself to replay a provider byte for byte), with `delay` between events.
    public static func sse(
        status: Int = 200,
        events: [String],
        delay: Duration? = nil,
        headers: [(name: String, value: String)] = []
    ) -> ScriptedResponse {
        var parts: [Part] = []
        for (index, event) in events.enumerated() {
            if index > 0, let delay { parts.append(.delay(delay)) }
            parts.append(.text(event))
        }
        return ScriptedResponse(
            status: status,
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")] + headers,
            parts: parts,
            framing: .chunked
        )
    }

    static func standardReason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
