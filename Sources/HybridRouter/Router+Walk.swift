import HybridConfig
import HybridCore

/// A model from the priority order with its configuration (nil when only the provider knows it).
struct Candidate: Sendable {
    var id: String
    var model: any LanguageModel
    var config: ModelConfig?

    var isMetered: Bool { config?.isMetered ?? false }
}

/// The mutable state of one request's walk down the priority order.
struct Walk: Sendable {
    var attempts: [RouteAttempt] = []
    /// After a context-window error, only models with a window larger than this are tried.
    var windowMustExceed: Int?
    /// This month's spend on the feature's metered models, read once per request when first needed.
    var spend: Result<Double, StoreError>?
    /// The answer failing the fewest checks among those that failed a check the policy falls back on.
    var best: CheckedAnswer?

    mutating func record(
        _ candidate: Candidate, _ outcome: RouteAttempt.Outcome, from started: ContinuousClock.Instant, plan: Plan,
        now: ContinuousClock.Instant, usage: TokenUsage? = nil
    ) {
        attempts.append(
            RouteAttempt(
                modelID: candidate.id, tier: candidate.model.tier, outcome: outcome, startedAt: started - plan.start,
                duration: now - started, usage: usage))
    }

    /// Keeps `answer` when it fails fewer checks than the best so far; ties keep the earlier model's.
    mutating func consider(_ answer: CheckedAnswer) {
        if best.map({ answer.failedCount < $0.failedCount }) ?? true { best = answer }
    }
}

/// An answer with the outcome of its output checks.
struct CheckedAnswer: Sendable {
    var response: GenerationResponse
    /// How many checks failed (every check, not only those the policy falls back on).
    var failedCount: Int
    /// Every failed check.
    var failures: [FailedOutputCheck]
}

/// What the output checks made of an answer.
enum Judgement: Sendable {
    /// Serve it; it may still fail checks the policy does not fall back on (listed).
    case accepted(failures: [FailedOutputCheck])
    /// It failed a check the policy falls back on; the attempt is recorded and the next model is tried.
    case rejected(CheckedAnswer)
}

/// What to do with one model of the priority order.
enum Preparation: Sendable {
    /// Passed over; the attempt is already recorded.
    case skip
    /// A cached response of this model; the attempt is already recorded.
    case cached(GenerationResponse)
    /// Call it.
    case call(Candidate)
}

extension Router {
    /// The model for `id`, built (or reused) from the config in force.
    func candidate(_ id: String, document: HybridConfigDocument) -> Candidate? {
        let config = document.models[id]
        if provider.memoize {
            guard let config else { return nil }
            if let model = state.withLock({ state -> (any LanguageModel)? in
                guard let built = state.built[id], built.config == config else { return nil }
                return built.model
            }) {
                return Candidate(id: id, model: model, config: config)
            }
            guard let model = provider.resolve(id, config) else { return nil }
            state.withLock { $0.built[id] = (config, model) }
            return Candidate(id: id, model: model, config: config)
        }
        guard let model = provider.resolve(id, config) else { return nil }
        return Candidate(id: id, model: model, config: config)
    }

    /// Checks, in order: known, privacy, window, cache, cooldown, availability, budget.
    ///
    /// The cache comes before the checks that need the model to serve now, so a cached answer is still returned
    /// while the model is offline, resting or over budget (it costs nothing).
    func prepare(_ id: String, plan: Plan, walk: inout Walk) async -> Preparation {
        let started = clock.now()
        func skip(_ model: (any LanguageModel)?, _ reason: RouteSkipReason) -> Preparation {
            let now = clock.now()
            walk.attempts.append(
                RouteAttempt(modelID: id, tier: model?.tier, outcome: .skipped(reason), startedAt: started - plan.start, duration: now - started))
            return .skip
        }
        guard let candidate = candidate(id, document: plan.document) else { return skip(nil, .unknownModel) }
        let model = candidate.model
        guard plan.privacy.allows(tier: model.tier) else { return skip(model, .privacy(tier: model.tier, privacy: plan.privacy)) }
        let window = model.capabilities.contextWindow
        if let mustExceed = walk.windowMustExceed, window <= mustExceed {
            return skip(model, .windowNotLarger(window: window, mustExceed: mustExceed))
        }
        let needed = policy.requiredWindow(promptTokens: plan.promptTokens, outputTokens: plan.outputReserve)
        if needed > window { return skip(model, .contextWindowTooSmall(neededTokens: needed, window: window)) }

        if let cache {
            let key = RouterCacheKey(feature: plan.feature, variant: plan.variant, modelID: id, request: plan.request)
            if let response = await cache.response(for: key) {
                walk.record(candidate, .servedFromCache, from: started, plan: plan, now: clock.now())
                return .cached(response)
            }
        }

        if let until = state.withLock({ $0.cooldowns[id] }) {
            let now = clock.now()
            if until > now { return skip(model, .coolingDown(remaining: until - now)) }
            state.withLock { state in
                if let current = state.cooldowns[id], current <= now { state.cooldowns[id] = nil }
            }
        }
        if policy.checkAvailability, case .unavailable(let reason) = await model.availability() {
            return skip(model, .unavailable(reason))
        }
        if candidate.isMetered, let cap = plan.config.monthlyBudgetUSD, let ledger {
            if walk.spend == nil { walk.spend = await monthSpend(plan: plan, ledger: ledger) }
            switch walk.spend {
            case .success(let spent) where spent >= cap:
                return skip(model, .overBudget(spentUSD: spent, capUSD: cap))
            case .failure(let error):
                return skip(model, .budgetUnknown(error.description))
            default:
                break
            }
        }
        return .call(candidate)
    }

    /// Spend this UTC month on the metered models of the feature's priority order.
    ///
    /// The ledger counts per model, so a model shared by several features counts toward each of their caps:
    /// caps are conservative, never exceeded because another feature's spend was missed.
    private func monthSpend(plan: Plan, ledger: any SpendLedger) async -> Result<Double, StoreError> {
        let metered = Set(plan.priority.filter { plan.document.models[$0]?.isMetered ?? false })
        do {
            let records = try await ledger.spendRecords(month: BillingMonth(containing: clock.date()))
            return .success(records.filter { metered.contains($0.modelID) }.reduce(0) { $0 + $1.usd })
        } catch {
            onIncident(.ledgerFailed(subject: "feature \(plan.feature)", detail: error.description))
            return .failure(error)
        }
    }

    /// Runs the feature's output checks on an answer and records the attempt as served or as failing the checks
    /// the routing policy falls back on.
    func judge(
        _ response: GenerationResponse, of candidate: Candidate, from started: ContinuousClock.Instant, plan: Plan,
        walk: inout Walk
    ) -> Judgement {
        guard !plan.checks.isEmpty else {
            walk.record(candidate, .served, from: started, plan: plan, now: clock.now(), usage: response.usage)
            return .accepted(failures: [])
        }
        let result = plan.checks.evaluate(response)
        let blocking = result.failures(selectedBy: plan.routing.outputFallback)
        guard blocking.isEmpty else {
            walk.record(candidate, .failedChecks(blocking), from: started, plan: plan, now: clock.now(), usage: response.usage)
            let answer = CheckedAnswer(response: response, failedCount: result.failedCount, failures: result.failures)
            walk.consider(answer)
            return .rejected(answer)
        }
        walk.record(candidate, .served, from: started, plan: plan, now: clock.now(), usage: response.usage)
        return .accepted(failures: result.adherent ? [] : result.failures)
    }

    /// The end of a walk that ran out of models: the best answer that failed its checks (or an error saying so,
    /// as `whenChecksFail` says), else the deadline if it has passed, else no eligible model.
    func finishExhausted(plan: Plan, walk: Walk) throws(RouterError) -> RoutedResponse {
        guard let best = walk.best else { throw exhausted(plan: plan, walk: walk) }
        guard plan.routing.whenChecksFail == .returnBest else {
            throw .outputChecksFailed(feature: plan.feature, attempts: walk.attempts)
        }
        return plan.routed(best.response, attempts: walk.attempts, fromCache: false, failedChecks: best.failures, isFailing: true)
    }

    /// Side effects of a failure (cooldown, incident, window bound), then the policy's verdict: return to try the
    /// next model, throw to stop.
    func handleFailure(_ error: GenerationError, of candidate: Candidate, plan: Plan, walk: inout Walk) throws(RouterError) {
        switch error {
        case .rateLimited(_, let retryAfter, let retryable, _):
            let rest = retryAfter ?? (retryable ? plan.routing.rateLimitCooldown : plan.routing.quotaCooldown)
            let until = clock.now() + rest
            state.withLock { state in
                state.cooldowns[candidate.id] = max(state.cooldowns[candidate.id] ?? until, until)
            }
        case .authentication(let model, let detail):
            onIncident(.authenticationFailed(model: model.isEmpty ? candidate.id : model, detail: detail))
        case .contextWindowExceeded:
            walk.windowMustExceed = max(walk.windowMustExceed ?? 0, candidate.model.capabilities.contextWindow)
        default:
            break
        }
        if Task.isCancelled { throw .cancelled(feature: plan.feature, attempts: walk.attempts) }
        if plan.routing.action(for: error.kind) == .stop {
            throw .stopped(feature: plan.feature, error: error, attempts: walk.attempts)
        }
    }

    /// After a model answered: record its spend and, when it is served, cache the response.
    func served(_ response: GenerationResponse, by candidate: Candidate, plan: Plan, cacheIt: Bool = true) async {
        if let ledger, let config = candidate.config, config.isMetered {
            let cost = config.pricing.cost(of: response.usage)
            if cost > 0 {
                do {
                    try await ledger.addSpend(model: candidate.id, month: BillingMonth(containing: clock.date()), usd: cost)
                } catch {
                    onIncident(.ledgerFailed(subject: "model \(candidate.id)", detail: error.description))
                }
            }
        }
        if cacheIt, let cache {
            let key = RouterCacheKey(feature: plan.feature, variant: plan.variant, modelID: candidate.id, request: plan.request)
            await cache.store(response, for: key)
        }
    }
}
