package import HybridCore

/// How the router walks a feature's priority order, as data: which errors fall back or stop, which failed output
/// checks fall back, a per-attempt timeout, cooldowns, what to return when every model fails its checks, and how
/// streams deliver text.
///
/// Set per feature (`features.NAME.routing`) over document-level defaults (`routing`), field by field (`onError`
/// key by key); what neither says comes from the app's `RouterDefaults`. Every field is optional.
/// ```json
/// "routing": {
///   "onError": { "refusal": "stop", "rate_limited": "fallback" },
///   "fallbackOnOutput": ["schema", "max_words"],
///   "attemptTimeoutMs": 4000,
///   "rateLimitCooldownMs": 30000,
///   "quotaCooldownMs": 900000,
///   "whenChecksFail": "return-best",
///   "streaming": "progressive",
///   "streamRecovery": "continue",
///   "hedge": { "afterMs": 600, "maxExtraCostPerRequestUSD": 0.002 }
/// }
/// ```
public struct RoutingConfig: Sendable, Hashable, Codable {
    /// What the router does after a model failed with an error kind.
    public enum ErrorAction: String, Sendable, Hashable, Codable, CaseIterable {
        /// Try the next eligible model.
        case fallback
        /// Stop the walk and report the error.
        case stop
    }

    /// What the router returns when every model it called answered but failed a check it falls back on.
    public enum WhenChecksFail: String, Sendable, Hashable, Codable, CaseIterable {
        /// The response failing the fewest checks (ties: the earlier model), marked with the checks it failed.
        case returnBest = "return-best"
        /// Throw `RouterError.outputChecksFailed` with every attempt.
        case throwError = "throw"
    }

    /// How `Router.stream` delivers text.
    public enum StreamingMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Text goes out as it arrives; once any went out, a failed check no longer falls back, and an error is
        /// recovered as ``RoutingConfig/streamRecovery`` says.
        case progressive
        /// Text is held until the response passed its checks ("deliver after checks"), so every fallback rule
        /// applies to streams too, at the cost of time to first text.
        case buffered
    }

    /// What a progressive stream does when the model whose text the app is showing fails (connection lost, server
    /// error, malformed stream, attempt timeout).
    public enum StreamRecovery: String, Sendable, Hashable, Codable, CaseIterable {
        /// The next model of the order continues the answer: the text shown goes to it as the start of the
        /// assistant's answer, and the stream goes on with no reset. A typed request, a feature with an
        /// `outputSchema` or a request with tools restarts instead (constrained decoding starts at the schema's root).
        case continueAnswer = "continue"
        /// The next model answers from the start, after a `RoutedStreamEvent.reset` that tells the app to clear the
        /// text shown.
        case restart
        /// The request ends with `RouterError.streamInterrupted`.
        case off
    }

    /// Error kind (`GenerationError.Kind` raw value: `refusal`, `rate_limited`, `timeout`, …) → action. A refusal
    /// is retried elsewhere only with `"refusal": "fallback"`.
    public var onError: [String: ErrorAction]?
    /// Failed output checks that fall back: `schema` (not JSON, or the schema failed), `constraints` (any soft
    /// constraint) and result names (`max_words`, `must_contain`, …).
    public var fallbackOnOutput: [String]?
    /// Longest time one model may take; a slower call is cancelled and the next model tried. The feature's
    /// `deadlineMs` still bounds the whole walk. 0: none, whatever the document's block or the app's defaults say
    /// (a written recommendation must not inherit a timeout it did not simulate).
    public var attemptTimeoutMs: Int?
    /// How long a model rests after a rate limit without `Retry-After`.
    public var rateLimitCooldownMs: Int?
    /// How long a model rests after a quota error a short wait will not fix.
    public var quotaCooldownMs: Int?
    /// What to return when every model failed its checks.
    public var whenChecksFail: WhenChecksFail?
    /// How streams deliver text.
    public var streaming: StreamingMode?
    /// What a progressive stream does when its model fails after text was shown.
    public var streamRecovery: StreamRecovery?
    /// When and what to race against a slow model; nil: requests are never hedged.
    public var hedge: HedgeConfig?

    /// Creates a routing block; nothing is checked here, `ConfigValidator` does that.
    public init(
        onError: [String: ErrorAction]? = nil, fallbackOnOutput: [String]? = nil, attemptTimeoutMs: Int? = nil,
        rateLimitCooldownMs: Int? = nil, quotaCooldownMs: Int? = nil, whenChecksFail: WhenChecksFail? = nil,
        streaming: StreamingMode? = nil, streamRecovery: StreamRecovery? = nil, hedge: HedgeConfig? = nil
    ) {
        self.onError = onError
        self.fallbackOnOutput = fallbackOnOutput
        self.attemptTimeoutMs = attemptTimeoutMs
        self.rateLimitCooldownMs = rateLimitCooldownMs
        self.quotaCooldownMs = quotaCooldownMs
        self.whenChecksFail = whenChecksFail
        self.streaming = streaming
        self.streamRecovery = streamRecovery
        self.hedge = hedge
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case onError, fallbackOnOutput, attemptTimeoutMs, rateLimitCooldownMs, quotaCooldownMs, whenChecksFail, streaming, streamRecovery, hedge
    }

    /// This block over `defaults`: a field set here wins; `onError` merges key by key, `hedge` is replaced whole.
    package func merged(over defaults: RoutingConfig?) -> RoutingConfig {
        guard let defaults else { return self }
        var out = self
        if let base = defaults.onError {
            out.onError = base.merging(onError ?? [:]) { _, mine in mine }
        }
        out.fallbackOnOutput = fallbackOnOutput ?? defaults.fallbackOnOutput
        out.attemptTimeoutMs = attemptTimeoutMs ?? defaults.attemptTimeoutMs
        out.rateLimitCooldownMs = rateLimitCooldownMs ?? defaults.rateLimitCooldownMs
        out.quotaCooldownMs = quotaCooldownMs ?? defaults.quotaCooldownMs
        out.whenChecksFail = whenChecksFail ?? defaults.whenChecksFail
        out.streaming = streaming ?? defaults.streaming
        out.streamRecovery = streamRecovery ?? defaults.streamRecovery
        out.hedge = hedge ?? defaults.hedge
        return out
    }

    /// `onError` with kinds parsed; entries naming no kind are left out (the validator reports them).
    package var errorActions: [GenerationError.Kind: ErrorAction] {
        var out: [GenerationError.Kind: ErrorAction] = [:]
        for (name, action) in onError ?? [:] {
            if let kind = GenerationError.Kind(rawValue: name) { out[kind] = action }
        }
        return out
    }

    /// `fallbackOnOutput` parsed; nil when unset or invalid (the validator reports invalid entries).
    package var outputSelection: OutputCheckSelection? {
        guard let fallbackOnOutput else { return nil }
        return try? OutputCheckSelection(parsing: fallbackOnOutput)
    }
}

extension HybridConfigDocument {
    /// The routing block in force for `feature`: its own over the document's defaults; nil when neither sets one.
    func routing(feature: String) -> RoutingConfig? {
        routing(for: features[feature])
    }

    /// `feature`'s routing block (as resolved for an install, say) over the document's defaults.
    package func routing(for feature: FeatureConfig?) -> RoutingConfig? {
        guard let own = feature?.routing else { return routing }
        return own.merged(over: routing)
    }
}
