public import HybridCore

/// How long one result took, in milliseconds (the column names say so: `ttft_ms`, `total_ms`).
///
/// Retry and backoff time is kept apart from `totalMs` so latency figures describe the model, not the retry policy.
public struct ResultTimings: Sendable, Hashable, Codable {
    /// Time to first token of the final attempt; nil when nothing was streamed.
    public var ttftMs: Double?
    /// Total time of the final attempt, from sending the request to the end of the response.
    public var totalMs: Double
    /// Completion tokens per second of decoding; nil when unknown.
    public var decodeTokensPerSecond: Double?
    /// Time spent in failed attempts and backoff sleeps before the final attempt.
    public var retryBackoffMs: Double
    /// True when the model had to load (first request to a local server), so reports can set it apart.
    public var coldStart: Bool
    /// The server's own prompt-processing time (llama.cpp `timings.prompt_ms`); nil when it reports none.
    public var serverPromptMs: Double?
    /// The server's own generation time (llama.cpp `timings.predicted_ms`); nil when it reports none.
    public var serverGenerationMs: Double?

    /// Time the request waited in the server's queue or on the network: `totalMs` minus the server's prompt and
    /// generation times, when the server reported both.
    public var queueingMs: Double? {
        guard let serverPromptMs, let serverGenerationMs else { return nil }
        return max(0, totalMs - serverPromptMs - serverGenerationMs)
    }

    /// Creates timings; all durations are milliseconds.
    public init(
        ttftMs: Double? = nil, totalMs: Double, decodeTokensPerSecond: Double? = nil, retryBackoffMs: Double = 0,
        coldStart: Bool = false, serverPromptMs: Double? = nil, serverGenerationMs: Double? = nil
    ) {
        self.ttftMs = ttftMs
        self.totalMs = totalMs
        self.decodeTokensPerSecond = decodeTokensPerSecond
        self.retryBackoffMs = retryBackoffMs
        self.coldStart = coldStart
        self.serverPromptMs = serverPromptMs
        self.serverGenerationMs = serverGenerationMs
    }

    /// Timings from a generation's own timing, plus what the runner measured around it.
    public init(_ timing: GenerationTiming, retryBackoff: Duration = .zero, coldStart: Bool = false) {
        self.init(
            ttftMs: timing.timeToFirstToken?.milliseconds,
            totalMs: timing.total.milliseconds,
            decodeTokensPerSecond: timing.decodeTokensPerSecond,
            retryBackoffMs: retryBackoff.milliseconds,
            coldStart: coldStart,
            serverPromptMs: timing.serverPromptTime?.milliseconds,
            serverGenerationMs: timing.serverGenerationTime?.milliseconds
        )
    }
}
