package import HybridConfig
package import HybridCore

extension RoutingWalk {
    /// Everything the walk decides by, fixed for one request: the feature's routing block over the document's and
    /// the app's `RouterDefaults`, the privacy class, the prompt's size and which shell services exist. Made by one
    /// resolver (`RoutingWalk+Resolve.swift`) for the router, the simulator and the router check alike.
    package struct Rules: Sendable, Equatable {
        /// Fall back or stop, per error kind; kinds not listed fall back.
        package var actions: [GenerationError.Kind: RoutingConfig.ErrorAction] = [:]
        /// The output checks whose failure moves on to the next model.
        package var outputFallback: OutputCheckSelection = .none
        /// The per-attempt timeout; nil: none.
        var attemptTimeout: Duration?
        /// The overall deadline from the walk's start; nil: none.
        var deadline: Duration?
        /// How long a model rests after a retryable rate limit without `Retry-After`.
        var rateLimitCooldown: Duration = RouterDefaults.rateLimitCooldown
        /// How long a model rests after a quota refusal a retry cannot fix.
        var quotaCooldown: Duration = RouterDefaults.quotaCooldown
        /// What a request gets when every answer failed a check it falls back on.
        package var whenChecksFail: RoutingConfig.WhenChecksFail = RouterDefaults.whenChecksFail
        /// The highest tier allowed; nil: any.
        var privacy: PrivacyClass?
        /// Tokens the prompt and the reserved output need in a context window.
        var neededWindow = 0
        /// Whether the shell has a response cache to look in.
        var usesCache = false
        /// Whether models are asked whether they can serve before being called.
        package var checksAvailability = false
        /// The feature's monthly cap on metered models when a ledger can enforce it; nil: none.
        var budgetCapUSD: Double?
        /// How a stream delivers text; the walk itself does not read it (the shell's `deltaSink` does).
        package var streaming: RoutingConfig.StreamingMode = RouterDefaults.streaming
        /// Whether a progressive stream whose model failed after its text was shown goes on with the next model
        /// (`continue` and `restart`: how is the shell's business) or fails.
        var streamRecovery: RoutingConfig.StreamRecovery = RouterDefaults.streamRecovery
        /// When and what to race against a slow call; nil: never hedge.
        package var hedge: Hedge?

        /// Rules with nothing set: every error falls back, no checks, no timers.
        init() {}

        /// The action for an error kind; kinds nobody listed fall back.
        package func action(for kind: GenerationError.Kind) -> RoutingConfig.ErrorAction {
            actions[kind] ?? .fallback
        }
    }

    /// The hedge rule: after `after` without an answer from a call, the next eligible model of the order is
    /// called alongside it; the first answer passing the checks wins, the other call is cancelled. One hedge per
    /// request. Privacy is judged as for any call; the tiers and the cost cap only limit which model is raced.
    package struct Hedge: Sendable, Equatable {
        /// How long a call may go without an answer (or, streaming progressively, without text) before the race.
        var after: Duration
        /// Tiers a raced model may run on; nil: any (privacy still applies).
        var tiers: Set<ModelTier>?
        /// The most a raced call may be expected to cost (`ModelFacts.estimatedCostUSD`); nil: no cap.
        var maxExtraCostUSD: Double?

        /// A hedge after `after`, to any tier, without a cost cap unless given.
        init(after: Duration, tiers: Set<ModelTier>? = nil, maxExtraCostUSD: Double? = nil) {
            self.after = after
            self.tiers = tiers
            self.maxExtraCostUSD = maxExtraCostUSD
        }

        /// The config's hedge block (its share cap is the shell's: it counts requests across walks).
        init(config: HedgeConfig) {
            self.init(after: .milliseconds(config.afterMs), tiers: config.tiers.map(Set.init), maxExtraCostUSD: config.maxExtraCostPerRequestUSD)
        }

        /// Whether a model with these facts may be raced.
        func allows(_ facts: ModelFacts) -> Bool {
            if let tiers, !(facts.tier.map(tiers.contains) ?? false) { return false }
            if let cap = maxExtraCostUSD, let cost = facts.estimatedCostUSD, cost > cap { return false }
            return true
        }
    }

    /// What the shell knows of a model of the order when the walk reaches it.
    package struct ModelFacts: Sendable {
        /// The model's tier; nil when the shell does not know it (a replay without tiers), so privacy is not judged.
        var tier: ModelTier?
        /// Tokens the model's context window holds; nil when the shell does not know it (no window rule applies).
        var contextWindow: Int?
        /// Whether calls are billed and count toward the feature's budget.
        var isMetered: Bool
        /// How much longer the model rests after a rate limit; nil or zero: it does not.
        var coolingDownFor: Duration?
        /// What calling the model for this request is expected to cost, for the hedge's cost cap; nil: unknown or free.
        var estimatedCostUSD: Double?

        /// Facts of a known model.
        package init(
            tier: ModelTier?, contextWindow: Int? = nil, isMetered: Bool = false, coolingDownFor: Duration? = nil,
            estimatedCostUSD: Double? = nil
        ) {
            self.tier = tier
            self.contextWindow = contextWindow
            self.isMetered = isMetered
            self.coolingDownFor = coolingDownFor
            self.estimatedCostUSD = estimatedCostUSD
        }
    }

    /// What happened since the last action, as the shell reports it.
    package enum Event: Sendable {
        /// For `.inspect`: the model's id and facts; nil facts: no such model.
        case inspected(id: String, facts: ModelFacts?)
        /// For `.lookUpCache`: whether a cached response was found (the shell keeps it).
        case cacheLookedUp(hit: Bool)
        /// For `.checkAvailability`: nil when the model can serve, else why not.
        case availability(UnavailabilityReason?)
        /// For `.readSpend`: this month's spend on the feature's metered models, or why it is unknown.
        case spendRead(Result<Double, SpendLedgerError>)
        /// For `.call`: the model answered; `checks` is what the output checks made of it (nil: the feature has
        /// none), `deliveredText` whether any of its text already reached the app (progressive streaming).
        case answered(checks: OutputCheckResult?, usage: TokenUsage?, deliveredText: Bool)
        /// For `.call`: the model failed.
        case failed(GenerationError, deliveredText: Bool)
        /// For `.call`: the attempt's limit passed first and the call was cut.
        case cut(deliveredText: Bool)
        /// The caller cancelled; accepted at any step.
        case callerCancelled
        /// For `.coolDown`, `.reportAuthenticationFailure` and `.cancel`: done.
        case performed
        /// For `.callHedged`: the hedge time came and the call had neither answered nor (streaming progressively)
        /// sent text. The call goes on; the walk looks for a model to race.
        case hedgeDue
        /// For `.startHedge` and `.awaitRace`: the call in flight at `position` ended (`answered`, `failed` or `cut`).
        indirect case raceEnded(position: Int, Event)
        /// For `.startHedge` and `.awaitRace`, progressive streaming: the call at `position` sent the first text; it
        /// wins the race.
        case textStarted(position: Int)
    }

    /// What the shell must do next.
    package enum Action: Sendable, Equatable {
        /// Report the facts of the model at this position of the order (`.inspected`).
        case inspect(Int)
        /// Look for a cached response of this model (`.cacheLookedUp`).
        case lookUpCache(Int)
        /// Ask the model whether it can serve now (`.availability`).
        case checkAvailability(Int)
        /// Read this month's spend (`.spendRead`); asked at most once per walk.
        case readSpend
        /// Call the model, cutting the call when `until` (from the walk's start) passes; nil: no limit.
        case call(Int, until: Duration?)
        /// As `.call`, and report `.hedgeDue` (leaving the call running) when `hedgeAt` comes first.
        case callHedged(Int, until: Duration?, hedgeAt: Duration)
        /// Call the model alongside the call in flight (cut at `until`); report whichever ends first as `.raceEnded`.
        case startHedge(Int, until: Duration?)
        /// Report the next end of a call in flight (`.raceEnded`), or its first text (`.textStarted`).
        case awaitRace
        /// Tear down the call in flight at this position (it lost the race, or the walk ended), then `.performed`.
        case cancel(Int)
        /// Rest the model for this long (shared across requests), then `.performed`.
        case coolDown(Int, for: Duration)
        /// An operator must fix the model's key; report it, then `.performed`.
        case reportAuthenticationFailure(Int, detail: String)
        /// The walk is over.
        case finish(Outcome)
    }

    /// How a walk ended.
    package enum Outcome: Sendable, Equatable {
        /// The answer of the model at `position` is returned. `isFailing`: it failed checks the policy falls back
        /// on and is returned as the best of a walk that ran out (or because its text was already shown);
        /// `cacheable`: it passed and may be stored for the next identical request.
        case served(position: Int, fromCache: Bool, failures: [FailedOutputCheck], isFailing: Bool, cacheable: Bool)
        /// The overall deadline passed.
        case deadlineExceeded
        /// The order ran out with nothing to return.
        case noEligibleModel
        /// An error kind the policy stops on.
        case stopped(GenerationError)
        /// Every answer failed its checks and the policy says throw.
        case outputChecksFailed
        /// The caller cancelled.
        case cancelled
        /// A model whose text was already shown failed or was cut, and no model recovered the answer (recovery
        /// off, an error kind that stops, or the order ran out).
        case streamInterrupted(GenerationError)
    }
}
