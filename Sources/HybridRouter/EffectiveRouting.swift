import HybridConfig
import HybridCore

/// The routing rules of one request: the feature's `routing` block over the document's defaults, then the app's
/// `RouterPolicy` for whatever the config does not say. Resolved once per request, so a config published
/// remotely changes the rules at the next request.
struct EffectiveRouting: Sendable {
    var actions: [GenerationError.Kind: RouterPolicy.FallbackAction]
    var outputFallback: OutputCheckSelection
    var attemptTimeout: Duration?
    var rateLimitCooldown: Duration
    var quotaCooldown: Duration
    var whenChecksFail: RoutingConfig.WhenChecksFail
    var streaming: RoutingConfig.StreamingMode

    init(config: RoutingConfig?, policy: RouterPolicy) {
        actions = policy.fallback
        for (kind, action) in config?.errorActions ?? [:] {
            actions[kind] = action == .stop ? .stop : .tryNext
        }
        outputFallback = config?.outputSelection ?? policy.fallbackOnOutput
        attemptTimeout = config?.attemptTimeoutMs.map { .milliseconds($0) } ?? policy.attemptTimeout
        rateLimitCooldown = config?.rateLimitCooldownMs.map { .milliseconds($0) } ?? policy.rateLimitCooldown
        quotaCooldown = config?.quotaCooldownMs.map { .milliseconds($0) } ?? policy.quotaCooldown
        whenChecksFail = config?.whenChecksFail ?? policy.whenChecksFail
        streaming = config?.streaming ?? policy.streaming
    }

    /// The action for an error kind; kinds nobody listed fall back.
    func action(for kind: GenerationError.Kind) -> RouterPolicy.FallbackAction {
        actions[kind] ?? .tryNext
    }
}

/// When one attempt must end: the per-attempt timeout or the overall deadline, whichever comes first.
struct AttemptLimit: Sendable {
    /// The instant the call is cut; nil when neither applies.
    var instant: ContinuousClock.Instant?
    /// True when the per-attempt timeout comes strictly before the overall deadline, so being cut means "try
    /// the next model" rather than "the request is out of time".
    var isAttemptTimeout: Bool
    /// The per-attempt timeout, for the attempt record.
    var timeout: Duration?

    init(start: ContinuousClock.Instant, timeout: Duration?, deadline: ContinuousClock.Instant?) {
        self.timeout = timeout
        let own = timeout.map { start + $0 }
        switch (own, deadline) {
        case (let own?, let deadline?):
            instant = min(own, deadline)
            isAttemptTimeout = own < deadline
        case (let own?, nil):
            instant = own
            isAttemptTimeout = true
        case (nil, let deadline):
            instant = deadline
            isAttemptTimeout = false
        }
    }
}
