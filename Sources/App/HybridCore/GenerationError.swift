/// Why a generation failed, in kinds the router can act on.
///
/// Every provider maps its own errors onto these kinds; the router falls back on the kind, never on a string.
/// Messages are for people: they say what happened and what to do, and never contain an API key.
///
/// A struct rather than a public enum, so that a new way for a model to fail does not break the exhaustive `switch`
/// of every caller and adapter (the shape of async-http-client's `HTTPClientError`). Build one with the static
/// functions (`throw .timeout(model: id, after: limit, phase: .total)`); to handle one, test ``kind`` and read the
/// properties of that kind, which are nil for the others:
///
/// ```swift
/// if error.kind == .rateLimited, let retryAfter = error.retryAfter { … }
/// ```
///
/// Two errors are equal when they have the same kind and the same values.
public struct GenerationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of a request ran out of time; the raw value is what reports and the database show.
    public enum TimeoutPhase: String, Sendable, Equatable, Codable {
        /// The connection (or a local server's startup) did not complete.
        case connect
        /// The connection was made but the first byte of the answer did not arrive.
        case firstByte = "first-byte"
        /// The answer started but did not finish in the time allowed for the whole call.
        case total
        /// The caller's (or router's) deadline passed, whatever phase the call was in.
        case deadline
    }

    /// Machine names of the error kinds, stored in the database and written in configs and retry policies, so the
    /// raw values never change.
    ///
    /// New kinds may be added (that is how ``GenerationError`` grows): test with `==` (`error.kind == .timeout`) rather
    /// than switching over every kind, since an exhaustive `switch` over `kind` would stop compiling when one is added.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The prompt (plus requested output) does not fit the model's context window.
        case contextWindowExceeded = "context_window_exceeded"
        /// The provider refused for rate or quota.
        case rateLimited = "rate_limited"
        /// The model cannot be used now.
        case unavailable
        /// No answer within the time allowed.
        case timeout
        /// The model or a safety filter declined to answer.
        case refusal
        /// The request was malformed for this provider; retrying will not help.
        case invalidRequest = "invalid_request"
        /// The API key was missing, wrong or lacks permission.
        case authentication
        /// The provider failed; a retry may help.
        case serverError = "server_error"
        /// The response could not be decoded.
        case decodingFailure = "decoding_failure"
        /// The caller cancelled.
        case cancelled
    }

    /// A stable machine name for the kind, used in the database, reports and retry policies; the way to tell errors
    /// apart (`error.kind == .timeout`).
    public let kind: Kind
    /// The model id the error is about, so a log line or a fallback decision can name the model without context.
    public let model: String
    /// What the provider said, in its words with secrets removed, for ``Kind/contextWindowExceeded``,
    /// ``Kind/rateLimited``, ``Kind/refusal``, ``Kind/invalidRequest``, ``Kind/authentication``,
    /// ``Kind/serverError`` and ``Kind/decodingFailure``; nil for the other kinds.
    public let detail: String?
    /// For ``Kind/rateLimited``: how long the provider asked us to wait (its `Retry-After`), when it said; the router
    /// cools the model down for that long instead of its default.
    public let retryAfter: Duration?
    /// For ``Kind/rateLimited``: false for quotas that a retry loop cannot fix (spend limits, per-day quotas), so
    /// runners stop retrying and the router cools the model down for longer; nil for the other kinds.
    public let retryable: Bool?
    /// For ``Kind/unavailable``: why the model cannot be used, in words a user can act on.
    public let reason: UnavailabilityReason?
    /// For ``Kind/timeout``: the limit that passed, when the adapter knows it (a deadline cut may not).
    let after: Duration?
    /// For ``Kind/timeout``: which part of the request ran out of time, so a slow connect is told from a slow model.
    public let phase: TimeoutPhase?
    /// For ``Kind/serverError``: the HTTP status, when there was one (a mid-stream error has none).
    public let status: Int?

    private init(
        _ kind: Kind, model: String, detail: String? = nil, retryAfter: Duration? = nil, retryable: Bool? = nil,
        reason: UnavailabilityReason? = nil, after: Duration? = nil, phase: TimeoutPhase? = nil, status: Int? = nil
    ) {
        self.kind = kind
        self.model = model
        self.detail = detail
        self.retryAfter = retryAfter
        self.retryable = retryable
        self.reason = reason
        self.after = after
        self.phase = phase
        self.status = status
    }

    /// The prompt (plus requested output) does not fit the model's context window; the router tries a model with a
    /// larger window.
    public static func contextWindowExceeded(model: String, detail: String) -> GenerationError {
        GenerationError(.contextWindowExceeded, model: model, detail: detail)
    }

    /// The provider refused for rate or quota. `retryAfter` comes from `Retry-After` when sent;
    /// `retryable` is false for quotas that a retry loop cannot fix (spend limits, per-day quotas).
    public static func rateLimited(model: String, retryAfter: Duration?, retryable: Bool, detail: String) -> GenerationError {
        GenerationError(.rateLimited, model: model, detail: detail, retryAfter: retryAfter, retryable: retryable)
    }

    /// The model cannot be used now (not installed, not running, overloaded, loading weights).
    public static func unavailable(model: String, reason: UnavailabilityReason) -> GenerationError {
        GenerationError(.unavailable, model: model, reason: reason)
    }

    /// No answer within the time allowed: `after` is the limit when known, `phase` the part of the request that ran
    /// out of time.
    public static func timeout(model: String, after: Duration?, phase: TimeoutPhase) -> GenerationError {
        GenerationError(.timeout, model: model, after: after, phase: phase)
    }

    /// The model or a safety filter declined to answer; by default the router does not bypass it on another model.
    public static func refusal(model: String, detail: String) -> GenerationError {
        GenerationError(.refusal, model: model, detail: detail)
    }

    /// The request was malformed for this provider (bad parameter, unsupported schema); retrying will not help.
    public static func invalidRequest(model: String, detail: String) -> GenerationError {
        GenerationError(.invalidRequest, model: model, detail: detail)
    }

    /// The API key was missing, wrong or lacks permission; the router reports it so the key can be fixed.
    public static func authentication(model: String, detail: String) -> GenerationError {
        GenerationError(.authentication, model: model, detail: detail)
    }

    /// The provider failed (5xx or a mid-stream error); a retry may help. `status` is the HTTP status when there was
    /// one.
    public static func serverError(model: String, status: Int?, detail: String) -> GenerationError {
        GenerationError(.serverError, model: model, detail: detail, status: status)
    }

    /// The response could not be decoded (bad JSON, broken SSE framing, structured output that does not parse).
    public static func decodingFailure(model: String, detail: String) -> GenerationError {
        GenerationError(.decodingFailure, model: model, detail: detail)
    }

    /// The caller cancelled (Swift task cancellation or the router dropping a losing call); not the model's fault.
    public static func cancelled(model: String) -> GenerationError {
        GenerationError(.cancelled, model: model)
    }

    /// What happened and what to do, for people and logs; never contains an API key.
    public var description: String {
        let detail = detail ?? ""
        switch kind {
        case .contextWindowExceeded:
            return "\(model): the prompt does not fit the context window (\(detail)); shorten the input or route to a model with a larger window"
        case .rateLimited:
            if retryable == false {
                return "\(model): quota exhausted (\(detail)); retrying will not help until the quota resets or the limit is raised"
            } else if let retryAfter {
                return "\(model): rate limited (\(detail)); retry after \(Self.format(retryAfter))"
            } else {
                return "\(model): rate limited (\(detail)); retry later or lower concurrency"
            }
        case .unavailable:
            return "\(model): unavailable: \(reason?.message ?? "")"
        case .timeout:
            let phase = phase?.rawValue ?? TimeoutPhase.total.rawValue
            return "\(model): timed out waiting for \(phase)\(after.map { " after \(Self.format($0))" } ?? ""); raise the timeout or deadline, or check the server"
        case .refusal:
            return "\(model): the model declined to answer (\(detail))"
        case .invalidRequest:
            return "\(model): invalid request (\(detail)); fix the request or the model's configuration"
        case .authentication:
            return "\(model): authentication failed (\(detail)); check that key and its permissions"
        case .serverError:
            return "\(model): server error\(status.map { " \($0)" } ?? "") (\(detail)); a retry may help"
        case .decodingFailure:
            return "\(model): could not decode the response (\(detail))"
        case .cancelled:
            return "\(model): cancelled"
        }
    }

    private static func format(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds >= 1 ? "\((seconds * 10).rounded() / 10) s" : "\(Int((seconds * 1000).rounded())) ms"
    }
}
