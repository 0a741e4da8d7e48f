import HybridConfig
import HybridCore

/// A model from the priority order with its configuration (nil when only the provider knows it).
struct Candidate: Sendable {
    var id: String
    var model: any LanguageModel
    var config: ModelConfig?

    var isMetered: Bool { config?.isMetered ?? false }
}

/// How a walk's model calls reach the app: one answer (`generate`), or text as it arrives (`stream`).
protocol WalkDelivery: Sendable {
    /// Calls the model at `position` of the order until `limit`; also says whether any of its text reached the app.
    func call(
        _ candidate: Candidate, _ request: GenerationRequest, position: Int, until limit: ContinuousClock.Instant?,
        clock: RouterClock
    ) async -> (outcome: RaceOutcome<GenerationResponse>, deliveredText: Bool)
    /// Attempts recorded since the last call.
    func recorded(_ attempts: ArraySlice<RouteAttempt>)
    /// The walk returns the answer of the model at `position`: deliver whatever of it the app has not seen.
    func deliver(_ response: GenerationResponse, position: Int)
    /// Before the call at `position` starts in a race: when text would reach the app as it arrives (progressive
    /// streams), hold it, run `firstText` at its first delta and return true; false when nothing goes out early.
    func holdText(of position: Int, firstText: @escaping @Sendable () -> Void) -> Bool
    /// The call at `position` won its race on its first text: let its text through.
    func release(_ position: Int)
    /// Estimated tokens the call at `position` has generated so far (its streamed text): a lost race's call is
    /// billed for them. 0 where the text is only seen whole (`generate`).
    func generatedTokens(of position: Int) -> Int
    /// Before the call at `position`: when an earlier model's text is on screen (a stream being recovered), makes
    /// the call take over as `mode` says and returns the text it continues; "" when it starts afresh.
    func takeOver(_ request: inout GenerationRequest, mode: RoutingConfig.StreamRecovery, position: Int) -> String
}

/// `generate`: the answer is returned, nothing goes out before.
struct AnswerDelivery: WalkDelivery {
    func call(
        _ candidate: Candidate, _ request: GenerationRequest, position: Int, until limit: ContinuousClock.Instant?,
        clock: RouterClock
    ) async -> (outcome: RaceOutcome<GenerationResponse>, deliveredText: Bool) {
        let outcome = await DeadlineRace.run(until: limit, clock: clock) { () async throws(GenerationError) in
            try await candidate.model.generate(request)
        }
        return (outcome, false)
    }

    func recorded(_ attempts: ArraySlice<RouteAttempt>) {}
    func deliver(_ response: GenerationResponse, position: Int) {}
    func holdText(of position: Int, firstText: @escaping @Sendable () -> Void) -> Bool { false }
    func release(_ position: Int) {}
    func generatedTokens(of position: Int) -> Int { 0 }
    func takeOver(_ request: inout GenerationRequest, mode: RoutingConfig.StreamRecovery, position: Int) -> String { "" }
}

/// What the shell keeps while the walk decides: the model being tried and the answers received. Most requests see
/// one model and one answer, so nothing here allocates until a second answer arrives.
private struct WalkLedger {
    var candidate: (position: Int, value: Candidate)?
    var last: (position: Int, response: GenerationResponse)?
    /// Answers before the last one: the walk may return one of them as the best failing answer.
    var earlier: [Int: GenerationResponse] = [:]
    var reported = 0
    /// Candidates of the calls in flight in a hedged race, by position.
    var racing: [Int: Candidate] = [:]
    /// The calls of a hedged race and the reader of their ends; nil until a call carries a hedge time.
    var race: (calls: HedgeRace, posts: AsyncStream<HedgeRace.Post>.Iterator)?
    /// Estimated usage of calls that lost a race or were interrupted after their text was shown (billed for their
    /// prompt and the text they streamed), by position.
    var estimatedUsage: [Int: TokenUsage] = [:]
    /// The text a recovering call continues, by position: its answer is this text followed by its own.
    var continued: [Int: String] = [:]
    /// Whether a second model was raced.
    var hedged = false

    mutating func keep(_ response: GenerationResponse, at position: Int) {
        if let last { earlier[last.position] = last.response }
        last = (position, response)
    }

    func response(at position: Int) -> GenerationResponse? {
        last?.position == position ? last?.response : earlier[position]
    }

    func candidate(at position: Int) -> Candidate? {
        candidate?.position == position ? candidate?.value : nil
    }
}

extension Router {
    /// Performs `plan`'s walk: `RoutingWalk` decides every step, this shell does the I/O it asks for (build a
    /// model, look in the cache, ask availability, read the ledger, call with a timer, rest a model, report an
    /// incident) and reports back with the clock's time.
    func walk(_ plan: Plan, delivery: some WalkDelivery) async throws(RouterError) -> RoutedResponse {
        var rules = rules(for: plan)
        let shareCap = rules.hedge == nil ? nil : plan.document.routing(for: plan.config)?.hedge?.maxHedgedShare
        if let shareCap, !hedgeShare.allows(plan.feature, cap: shareCap) { rules.hedge = nil }
        var walk = RoutingWalk(rules: rules, count: plan.priority.count)
        var ledger = WalkLedger()
        defer {
            ledger.race?.calls.cancelAll()
            if shareCap != nil { hedgeShare.count(plan.feature, hedged: ledger.hedged) }
        }
        var action = walk.start(at: clock.now() - plan.start)
        while true {
            if case .finish(let outcome) = action {
                return try await finish(outcome, plan: plan, walk: walk, ledger: ledger, delivery: delivery)
            }
            if walk.attempts.count > ledger.reported {
                delivery.recorded(walk.attempts[ledger.reported...])
                ledger.reported = walk.attempts.count
            }
            let event: RoutingWalk.Event
            switch action {
            case .finish:
                preconditionFailure("handled above")
            case .inspect(let position):
                event = inspect(position, plan: plan, ledger: &ledger)
            case .lookUpCache(let position):
                let response = await cache?.response(for: cacheKey(plan, position))
                if let response { ledger.keep(response, at: position) }
                event = .cacheLookedUp(hit: response != nil)
            case .checkAvailability(let position):
                let availability = await ledger.candidate(at: position)?.model.availability()
                if case .unavailable(let reason) = availability { event = .availability(reason) } else { event = .availability(nil) }
            case .readSpend:
                event = .spendRead(await monthSpend(plan: plan))
            case .call(let position, let until):
                event = await call(position, until: until.map { plan.start + $0 }, plan: plan, ledger: &ledger, delivery: delivery)
            case .callHedged(let position, let until, let hedgeAt):
                event = await callHedged(position, until: until, hedgeAt: hedgeAt, plan: plan, ledger: &ledger, delivery: delivery)
            case .startHedge(let position, let until):
                ledger.hedged = true
                startRacing(position, until: until, plan: plan, ledger: &ledger, delivery: delivery)
                event = await raceEnd(plan: plan, ledger: &ledger, delivery: delivery)
            case .awaitRace:
                event = await raceEnd(plan: plan, ledger: &ledger, delivery: delivery)
            case .cancel(let position):
                await cancelRacing(position, plan: plan, ledger: &ledger, delivery: delivery)
                event = .performed
            case .coolDown(let position, let rest):
                let until = clock.now() + rest, id = plan.priority[position]
                state.withLock { state in state.cooldowns[id] = max(state.cooldowns[id] ?? until, until) }
                event = .performed
            case .reportAuthenticationFailure(let position, let detail):
                onIncident(.authenticationFailed(model: plan.priority[position], detail: detail))
                event = .performed
            }
            action = walk.next(Task.isCancelled ? .callerCancelled : event, at: clock.now() - plan.start)
        }
    }

    /// The walk's rules for `plan`: its routing, plus what only the plan and this router know.
    private func rules(for plan: Plan) -> RoutingWalk.Rules {
        var rules = plan.rules
        rules.neededWindow = policy.requiredWindow(promptTokens: plan.promptTokens, outputTokens: plan.outputReserve)
        rules.usesCache = cache != nil
        rules.budgetCapUSD = ledger == nil ? nil : plan.config.monthlyBudgetUSD
        return rules
    }

    private func inspect(_ position: Int, plan: Plan, ledger: inout WalkLedger) -> RoutingWalk.Event {
        let id = plan.priority[position]
        guard let candidate = candidate(id, document: plan.document) else { return .inspected(id: id, facts: nil) }
        ledger.candidate = (position, candidate)
        return .inspected(
            id: id,
            facts: RoutingWalk.ModelFacts(
                tier: candidate.model.tier, contextWindow: candidate.model.capabilities.contextWindow,
                isMetered: candidate.isMetered, coolingDownFor: restRemaining(id),
                estimatedCostUSD: plan.rules.hedge?.maxExtraCostUSD == nil ? nil : expectedCost(of: candidate, plan: plan)))
    }

    /// What calling `candidate` for `plan` is expected to cost (`Plan.expectedCost(for:)`); nil when unpriced.
    private func expectedCost(of candidate: Candidate, plan: Plan) -> Double? {
        candidate.config.flatMap(plan.expectedCost(for:))
    }

    private func call(
        _ position: Int, until limit: ContinuousClock.Instant?, plan: Plan, ledger: inout WalkLedger, delivery: some WalkDelivery
    ) async -> RoutingWalk.Event {
        guard let candidate = ledger.candidate(at: position) else { preconditionFailure("the walk calls only the model it inspected last") }
        var request = plan.request
        request.deadline = limit  // providers stop at the same time as the race
        let shown = delivery.takeOver(&request, mode: plan.rules.streamRecovery, position: position)
        if !shown.isEmpty { ledger.continued[position] = shown }
        let (outcome, deliveredText) = await delivery.call(candidate, request, position: position, until: limit, clock: clock)
        return await judge(outcome, deliveredText: deliveredText, position: position, candidate: candidate, plan: plan, ledger: &ledger, delivery: delivery)
    }

    /// How a call ended, as the walk reads it: an answer is kept, billed and checked.
    private func judge(
        _ outcome: RaceOutcome<GenerationResponse>, deliveredText: Bool, position: Int, candidate: Candidate, plan: Plan,
        ledger: inout WalkLedger, delivery: some WalkDelivery
    ) async -> RoutingWalk.Event {
        if deliveredText, !outcome.isAnswer {
            await billInterrupted(position, candidate: candidate, plan: plan, generated: delivery.generatedTokens(of: position), ledger: &ledger)
        }
        switch outcome {
        case .finished(.success(var response)):
            await bill(response, by: candidate)
            if let shown = ledger.continued[position] { response.text = Self.joined(shown, continuedBy: response.text) }
            ledger.keep(response, at: position)
            let checks = plan.checks.isEmpty ? nil : plan.checks.evaluate(response)
            return .answered(checks: checks, usage: response.usage, deliveredText: deliveredText)
        case .finished(.failure(let error)):
            return .failed(error, deliveredText: deliveredText)
        case .deadline:
            return .cut(deliveredText: deliveredText)
        case .callerCancelled:
            return .callerCancelled
        }
    }

    private func finish(
        _ outcome: RoutingWalk.Outcome, plan: Plan, walk: RoutingWalk, ledger: WalkLedger, delivery: some WalkDelivery
    ) async throws(RouterError) -> RoutedResponse {
        var attempts = walk.attempts
        for (position, usage) in ledger.estimatedUsage {
            let billed: Set<RouteAttempt.Outcome.Kind> = [.lostRace, .interrupted]
            if let index = attempts.firstIndex(where: { billed.contains($0.outcome.kind) && $0.modelID == plan.priority[position] }) {
                attempts[index].usage = usage
            }
        }
        // The served answer's text goes out before its attempt record, as `RoutedStreamEvent` documents.
        defer { if attempts.count > ledger.reported { delivery.recorded(attempts[ledger.reported...]) } }
        switch outcome {
        case .served(let position, let fromCache, let failures, let isFailing, let cacheable):
            guard let response = ledger.response(at: position) else { preconditionFailure("the walk serves only answers it was told of") }
            if cacheable, let cache { await cache.store(response, for: cacheKey(plan, position)) }
            delivery.deliver(response, position: position)
            return plan.routed(response, attempts: attempts, fromCache: fromCache, failedChecks: failures, isFailing: isFailing)
        case .deadlineExceeded:
            throw .deadlineExceeded(feature: plan.feature, deadline: plan.rules.deadline ?? .zero, attempts: attempts)
        case .noEligibleModel:
            throw .noEligibleModel(feature: plan.feature, attempts: attempts)
        case .stopped(let error):
            throw .stopped(feature: plan.feature, error: error, attempts: attempts)
        case .outputChecksFailed:
            throw .outputChecksFailed(feature: plan.feature, attempts: attempts)
        case .cancelled:
            throw .cancelled(feature: plan.feature, attempts: attempts)
        case .streamInterrupted(let error):
            throw .streamInterrupted(feature: plan.feature, error: error, attempts: attempts)
        }
    }

    // MARK: - Hedged races

    /// A call with a hedge time: it runs in a race of its own, and whichever of its end and the hedge time comes
    /// first is reported; the call keeps running after `.hedgeDue`.
    private func callHedged(
        _ position: Int, until: Duration?, hedgeAt: Duration, plan: Plan, ledger: inout WalkLedger, delivery: some WalkDelivery
    ) async -> RoutingWalk.Event {
        let calls = HedgeRace(taskExecutor: clock.taskExecutor)
        ledger.race = (calls, calls.makeIterator())
        startRacing(position, until: until, plan: plan, ledger: &ledger, delivery: delivery)
        calls.arm(at: plan.start + hedgeAt, clock: clock)
        while true {
            guard let post = await calls.next(&ledger.race!.posts, timer: true) else { return .callerCancelled }
            switch post {
            case .hedgeDue:
                return .hedgeDue
            case .firstText(let position):
                // Text before the hedge time is on screen: no race; the call goes on alone.
                calls.disarm()
                delivery.release(position)
            case .ended(let ended, let outcome, let deliveredText):
                calls.disarm()
                let candidate = ledger.racing.removeValue(forKey: ended)!
                return await judge(outcome, deliveredText: deliveredText, position: ended, candidate: candidate, plan: plan, ledger: &ledger, delivery: delivery)
            }
        }
    }

    /// Starts the call at `position` (the candidate inspected last) in the request's race.
    private func startRacing(
        _ position: Int, until: Duration?, plan: Plan, ledger: inout WalkLedger, delivery: some WalkDelivery
    ) {
        guard let candidate = ledger.candidate(at: position), let calls = ledger.race?.calls else {
            preconditionFailure("the walk races only the model it inspected last, after a call with a hedge time")
        }
        ledger.racing[position] = candidate
        var request = plan.request
        let limit = until.map { plan.start + $0 }
        request.deadline = limit
        let clock = self.clock, sent = request
        _ = delivery.holdText(of: position) { calls.postFirstText(position) }
        calls.start(position) { await delivery.call(candidate, sent, position: position, until: limit, clock: clock) }
    }

    /// The next end (or first text) of a call in the race.
    private func raceEnd(plan: Plan, ledger: inout WalkLedger, delivery: some WalkDelivery) async -> RoutingWalk.Event {
        guard let calls = ledger.race?.calls, let post = await calls.next(&ledger.race!.posts, timer: false) else { return .callerCancelled }
        switch post {
        case .hedgeDue:
            preconditionFailure("the race reads no timer")
        case .firstText(let position):
            // The walk makes the first call to send text the winner; its text goes out now.
            delivery.release(position)
            return .textStarted(position: position)
        case .ended(let ended, let outcome, let deliveredText):
            let candidate = ledger.racing.removeValue(forKey: ended)!
            let end = await judge(outcome, deliveredText: deliveredText, position: ended, candidate: candidate, plan: plan, ledger: &ledger, delivery: delivery)
            return .raceEnded(position: ended, end)
        }
    }

    /// Tears down a call that lost the race; its prompt and the text it streamed before the cancel are billed (an
    /// estimate: the provider counted both, and its own count never arrives for a cancelled call).
    private func cancelRacing(_ position: Int, plan: Plan, ledger: inout WalkLedger, delivery: some WalkDelivery) async {
        ledger.race?.calls.cancel(position)
        guard let candidate = ledger.racing.removeValue(forKey: position) else { return }
        let usage = TokenUsage(
            promptTokens: plan.promptTokens, completionTokens: delivery.generatedTokens(of: position), isEstimated: true)
        ledger.estimatedUsage[position] = usage
        await bill(usage, by: candidate)
    }

    /// A call whose text was shown and that then failed or was cut: billed like a lost race, for its prompt and the
    /// text it streamed (the provider's own count never arrives for a broken stream).
    private func billInterrupted(
        _ position: Int, candidate: Candidate, plan: Plan, generated: Int, ledger: inout WalkLedger
    ) async {
        let usage = TokenUsage(promptTokens: plan.promptTokens, completionTokens: generated, isEstimated: true)
        ledger.estimatedUsage[position] = usage
        await bill(usage, by: candidate)
    }

    /// A recovering model's answer after the text it continued. A model that repeats the text it was given (as
    /// llama-server does with an assistant prefill) is not counted twice.
    static func joined(_ shown: String, continuedBy text: String) -> String {
        if text.hasPrefix(shown) { return text }
        if shown.hasPrefix(text) { return shown }  // it repeated part of the text and stopped: nothing new
        return shown + text
    }

    private func cacheKey(_ plan: Plan, _ position: Int) -> RouterCacheKey {
        RouterCacheKey(feature: plan.feature, variant: plan.variant, modelID: plan.priority[position], request: plan.request)
    }

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

    /// Spend this UTC month on the metered models of the feature's priority order.
    ///
    /// The ledger counts per model, so a model shared by several features counts toward each of their caps:
    /// caps are conservative, never exceeded because another feature's spend was missed.
    private func monthSpend(plan: Plan) async -> Result<Double, SpendLedgerError> {
        guard let ledger else { return .success(0) }
        let metered = Set(plan.priority.filter { plan.document.models[$0]?.isMetered ?? false })
        do {
            let records = try await ledger.spendRecords(month: BillingMonth(containing: clock.date()))
            return .success(records.filter { metered.contains($0.modelID) }.reduce(0) { $0 + $1.usd })
        } catch {
            onIncident(.ledgerFailed(subject: "feature \(plan.feature)", detail: error.description))
            return .failure(error)
        }
    }

    /// Every answer of a metered model is billed, served or not.
    private func bill(_ response: GenerationResponse, by candidate: Candidate) async {
        await bill(response.usage, by: candidate)
    }

    private func bill(_ usage: TokenUsage, by candidate: Candidate) async {
        // A budget never covers a model of unknown price (the validator refuses it), so nil here has no budget to count in.
        guard let ledger, let config = candidate.config, config.isMetered, let cost = config.pricing?.cost(of: usage), cost > 0 else { return }
        do {
            try await ledger.addSpend(model: candidate.id, month: BillingMonth(containing: clock.date()), usd: cost)
        } catch {
            onIncident(.ledgerFailed(subject: "model \(candidate.id)", detail: error.description))
        }
    }
}

extension Router {
    /// How much longer `id` rests after a rate limit or quota error; nil when it does not (an expired rest is
    /// forgotten). What the walk and prewarm both ask.
    func restRemaining(_ id: String) -> Duration? {
        let now = clock.now()
        return state.withLock { state -> Duration? in
            guard let until = state.cooldowns[id] else { return nil }
            if until <= now { state.cooldowns[id] = nil }
            return until > now ? until - now : nil
        }
    }
}
