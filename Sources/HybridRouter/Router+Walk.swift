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

    mutating func record(
        _ candidate: Candidate, _ outcome: RouteAttempt.Outcome, from started: ContinuousClock.Instant, plan: Plan,
        now: ContinuousClock.Instant
    ) {
        attempts.append(
            RouteAttempt(
                modelID: candidate.id, tier: candidate.model.tier, outcome: outcome, startedAt: started - plan.start,
                duration: now - started))
    }
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

    /// Side effects of a failure (cooldown, incident, window bound), then the policy's verdict: return to try the
    /// next model, throw to stop.
    func handleFailure(_ error: GenerationError, of candidate: Candidate, plan: Plan, walk: inout Walk) throws(RouterError) {
        switch error {
        case .rateLimited(_, let retryAfter, let retryable, _):
            let rest = retryAfter ?? (retryable ? policy.rateLimitCooldown : policy.quotaCooldown)
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
        if policy.action(for: error.kind) == .stop {
            throw .stopped(feature: plan.feature, error: error, attempts: walk.attempts)
        }
    }

    /// After a model served: record its spend and cache the response.
    func served(_ response: GenerationResponse, by candidate: Candidate, plan: Plan) async {
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
        if let cache {
            let key = RouterCacheKey(feature: plan.feature, variant: plan.variant, modelID: candidate.id, request: plan.request)
            await cache.store(response, for: key)
        }
    }
}
