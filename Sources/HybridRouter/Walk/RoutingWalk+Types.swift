package import HybridConfig
package import HybridCore

extension RoutingWalk {
    /// Everything the walk decides by, fixed for one request: the feature's routing block over the document's and
    /// the app's `RouterDefaults`, the privacy class, the prompt's size and which shell services exist. Made by one
    /// resolver (`RoutingWalk+Resolve.swift`) for the router, the simulator and the router check alike.
    package struct Rules: Sendable, Equatable {
        /// Fall back or stop, per error kind; kinds not listed fall back.
        package var actions: [GenerationError.Kind: RouterDefaults.FallbackAction] = [:]
        /// The output checks whose failure moves on to the next model.
        package var outputFallback: OutputCheckSelection = .none
        /// The per-attempt timeout; nil: none.
        package var attemptTimeout: Duration?
        /// The overall deadline from the walk's start; nil: none.
        package var deadline: Duration?
        /// How long a model rests after a retryable rate limit without `Retry-After`.
        package var rateLimitCooldown: Duration = RouterDefaults.standard.rateLimitCooldown
        /// How long a model rests after a quota refusal a retry cannot fix.
        package var quotaCooldown: Duration = RouterDefaults.standard.quotaCooldown
        /// What a request gets when every answer failed a check it falls back on.
        package var whenChecksFail: RoutingConfig.WhenChecksFail = RouterDefaults.standard.whenChecksFail
        /// The highest tier allowed; nil: any.
        package var privacy: PrivacyClass?
        /// Tokens the prompt and the reserved output need in a context window.
        package var neededWindow = 0
        /// Whether the shell has a response cache to look in.
        package var usesCache = false
        /// Whether models are asked whether they can serve before being called.
        package var checksAvailability = false
        /// The feature's monthly cap on metered models when a ledger can enforce it; nil: none.
        package var budgetCapUSD: Double?
        /// How a stream delivers text; the walk itself does not read it (the shell's `deltaSink` does).
        package var streaming: RoutingConfig.StreamingMode = .progressive

        /// Rules with nothing set: every error falls back, no checks, no timers.
        package init() {}

        /// The action for an error kind; kinds nobody listed fall back.
        package func action(for kind: GenerationError.Kind) -> RouterDefaults.FallbackAction {
            actions[kind] ?? .tryNext
        }
    }

    /// What the shell knows of a model of the order when the walk reaches it.
    package struct ModelFacts: Sendable {
        /// The model's tier; nil when the shell does not know it (a replay without tiers), so privacy is not judged.
        package var tier: ModelTier?
        /// Tokens the model's context window holds; nil when the shell does not know it (no window rule applies).
        package var contextWindow: Int?
        /// Whether calls are billed and count toward the feature's budget.
        package var isMetered: Bool
        /// How much longer the model rests after a rate limit; nil or zero: it does not.
        package var coolingDownFor: Duration?

        /// Facts of a known model.
        package init(tier: ModelTier?, contextWindow: Int? = nil, isMetered: Bool = false, coolingDownFor: Duration? = nil) {
            self.tier = tier
            self.contextWindow = contextWindow
            self.isMetered = isMetered
            self.coolingDownFor = coolingDownFor
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
        /// For `.coolDown` and `.reportAuthenticationFailure`: done.
        case performed
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
        /// A model whose text was already shown failed or was cut; another model cannot continue its text.
        case streamInterrupted(GenerationError)
    }
}
