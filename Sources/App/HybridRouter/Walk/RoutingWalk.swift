import HybridCore

/// Every routing decision of one request, as a plain value: which model next, why one is skipped, fallback or
/// stop after an error, the per-attempt timeout and the overall deadline, output checks, what a request gets when
/// every answer failed them.
///
/// No I/O, no clock, no `async`: the shell (the `Router`, or the simulator replaying stored results) performs each
/// `Action` and reports what happened as an `Event` with the time elapsed since the walk began. The walk is the
/// only place routing rules live, so the router and the simulator cannot disagree, and its tests enumerate rule
/// combinations without a socket or a sleep (the pattern of async-http-client's `HTTPRequestStateMachine`).
///
/// Order of checks for each model: known, privacy, context window (and the larger window a context-window error
/// asked for), cache, cooldown, availability, budget, then the deadline before calling. The cache comes before
/// the checks that need the model to serve now, so a cached answer is still returned while the model is offline,
/// resting or over budget (it costs nothing).
///
/// Stream recovery (`Rules.streamRecovery`): a progressive stream's model that fails after its text was shown is
/// recorded as interrupted and, unless recovery is off or the error kind stops, the walk goes on to the next model
/// as after any failure, without the cache (a cached answer would not continue the text) and without a hedge; the
/// shell decides how the next model takes over (continuing the text, or restarting after a reset).
///
/// Hedging (`Rules.hedge`, in `RoutingWalk+Hedge.swift`): a call may carry a hedge time; when it passes, the walk
/// looks for the next model to race with the same checks, and until the race is decided every call in flight
/// reports its end as `.raceEnded`.
package struct RoutingWalk: Sendable {
    /// The model being decided: its place in the order, what the shell said of it, and when its step began (its
    /// inspection, or its call once called).
    struct Step: Sendable {
        var position: Int
        var modelID = ""
        var facts = ModelFacts(tier: nil)
        var started: Duration
    }

    /// What the walk waits for, each step with the data it needs (as async-http-client's connection state machine
    /// keeps its states' data in its cases): nothing about a model outlives the phase that decides it. Only
    /// `performing` is boxed (it holds a phase): an `indirect enum` would allocate at every step of every request.
    enum Phase: Sendable {
        /// Before the call, one question at a time about the model at `Step`.
        case inspecting(Step), lookingUpCache(Step), checkingAvailability(Step), readingSpend(Step)
        /// The model's call is running.
        case calling(InFlightCall)
        /// Waiting for the calls of a race (`inFlight`).
        case racing
        /// Handing out side effects before `then`; `resume` is where the verdict left the walk.
        indirect case performing(effects: [Action], then: Action, resume: Phase)
        case finished
    }

    /// The rules in force.
    let rules: Rules
    /// How many models the order has.
    let count: Int
    /// Every attempt so far, skips included, in order.
    package internal(set) var attempts: [RouteAttempt] = []

    var phase = Phase.finished
    /// Where the request's one hedge stands.
    var hedgeState = HedgeState.unused
    /// Calls in flight other than the one being decided: the race's other runners.
    var inFlight: [InFlightCall] = []
    /// The first position the walk may still inspect: models a hedge search passed are not inspected again.
    var cursor = 0
    /// The time of the last event, for attempts the walk ends without an event of their own.
    var lastEventAt = Duration.zero
    /// The error after which a shown stream is being recovered: the first model whose text reached the app and
    /// then failed. Set, the walk ends with `.streamInterrupted` rather than a plain failure when nothing recovers.
    private(set) var interruption: GenerationError?
    /// After a context-window error, only models with a window larger than this are tried.
    private var windowMustExceed: Int?
    /// This month's spend, read once when a metered model is first reached.
    private var spend: Result<Double, SpendLedgerError>?
    /// The answer failing the fewest checks among those rejected; ties keep the earlier model's.
    private var best: (position: Int, failedCount: Int, failures: [FailedOutputCheck])?

    /// A walk over an order of `count` models.
    package init(rules: Rules, count: Int) {
        self.rules = rules
        self.count = count
    }

    /// The first action.
    package mutating func start(at now: Duration) -> Action {
        advance(to: 0, at: now)
    }

    /// The action after `event`, which happened `now` (from the walk's start).
    package mutating func next(_ event: Event, at now: Duration) -> Action {
        lastEventAt = now
        if case .callerCancelled = event { abandonRace(at: now) }
        switch (phase, event) {
        case (.finished, _):
            preconditionFailure("the walk is over")
        case (.calling(let call), .callerCancelled):
            record(.failed(.cancelled(model: call.modelID)), for: call.step, at: now)
            return finish(.cancelled)
        case (_, .callerCancelled):
            return finish(.cancelled)
        case (.inspecting(let step), .inspected(let id, let facts)):
            return inspected(step, id: id, facts: facts, at: now)
        case (.lookingUpCache(let step), .cacheLookedUp(let hit)):
            guard hit else { return afterCache(step, at: now) }
            record(.servedFromCache, for: step, at: now)
            return finish(.served(position: step.position, fromCache: true, failures: [], isFailing: false, cacheable: false))
        case (.checkingAvailability(let step), .availability(let reason)):
            if let reason { return skip(step, .unavailable(reason), at: now) }
            return afterAvailability(step, at: now)
        case (.readingSpend(let step), .spendRead(let result)):
            spend = result
            return budgetVerdict(step, at: now)
        case (.calling(let call), .answered), (.calling(let call), .failed), (.calling(let call), .cut):
            if hedgeState == .armed { hedgeState = .unused }  // the call ended before its hedge time
            return ended(call, event, at: now)
        case (.calling(let call), .hedgeDue) where hedgeState == .armed:
            return hedgeDue(call, at: now)
        case (.racing, .raceEnded(let position, let end)):
            return raceEnded(position: position, end, at: now)
        case (.racing, .textStarted(let position)):
            return textStarted(position: position, at: now)
        case (.performing(var effects, let then, let resume), .performed):
            guard effects.isEmpty else {
                let first = effects.removeFirst()
                phase = .performing(effects: effects, then: then, resume: resume)
                return first
            }
            phase = resume
            return then
        default:
            preconditionFailure("event \(event) does not answer the walk's \(phase) step")
        }
    }

    /// The end of `call`, the call being decided.
    mutating func ended(_ call: InFlightCall, _ event: Event, at now: Duration) -> Action {
        switch event {
        case .answered(let checks, let usage, let deliveredText):
            return answered(call, checks: checks, usage: usage, deliveredText: deliveredText, at: now)
        case .failed(let error, let deliveredText):
            return failed(call, error, deliveredText: deliveredText, at: now)
        case .cut(let deliveredText):
            return cut(call, deliveredText: deliveredText, at: now)
        default:
            preconditionFailure("event \(event) is not the end of a call")
        }
    }

    // MARK: - Before the call

    /// Moves to the model at `next` (or later, past models a hedge search passed); while another call runs, waits
    /// for it instead.
    mutating func advance(to requested: Int, at now: Duration) -> Action {
        let next = max(requested, cursor)
        if hedgeState == .searching {
            guard next < count else { return endSearch(resumeAt: count) }
        } else if !inFlight.isEmpty {
            phase = .racing
            return .awaitRace
        }
        guard next < count else { return exhausted(at: now) }
        phase = .inspecting(Step(position: next, started: now))
        return .inspect(next)
    }

    private mutating func inspected(_ step: Step, id: String, facts: ModelFacts?, at now: Duration) -> Action {
        var step = step
        step.modelID = id
        guard let facts else { return skip(step, .unknownModel, at: now) }
        step.facts = facts
        if let tier = facts.tier, let privacy = rules.privacy, !privacy.allows(tier: tier) {
            return skip(step, .privacy(tier: tier, privacy: privacy), at: now)
        }
        if let window = facts.contextWindow {
            if let mustExceed = windowMustExceed, window <= mustExceed {
                return skip(step, .windowNotLarger(window: window, mustExceed: mustExceed), at: now)
            }
            if rules.neededWindow > window {
                return skip(step, .contextWindowTooSmall(neededTokens: rules.neededWindow, window: window), at: now)
            }
        }
        guard rules.usesCache, interruption == nil else { return afterCache(step, at: now) }
        phase = .lookingUpCache(step)
        return .lookUpCache(step.position)
    }

    private mutating func afterCache(_ step: Step, at now: Duration) -> Action {
        if let remaining = step.facts.coolingDownFor, remaining > .zero {
            return skip(step, .coolingDown(remaining: remaining), at: now)
        }
        guard rules.checksAvailability else { return afterAvailability(step, at: now) }
        phase = .checkingAvailability(step)
        return .checkAvailability(step.position)
    }

    private mutating func afterAvailability(_ step: Step, at now: Duration) -> Action {
        guard step.facts.isMetered, rules.budgetCapUSD != nil else { return call(step, at: now) }
        guard spend != nil else {
            phase = .readingSpend(step)
            return .readSpend
        }
        return budgetVerdict(step, at: now)
    }

    private mutating func budgetVerdict(_ step: Step, at now: Duration) -> Action {
        switch (spend, rules.budgetCapUSD) {
        case (.success(let spent)?, let cap?) where spent >= cap:
            return skip(step, .overBudget(spentUSD: spent, capUSD: cap), at: now)
        case (.failure(let error)?, _):
            return skip(step, .budgetUnknown(error.description), at: now)
        default:
            return call(step, at: now)
        }
    }

    /// The deadline is checked only before a call: skips cost nothing, and a cached answer is still worth
    /// returning after it.
    private mutating func call(_ step: Step, at now: Duration) -> Action {
        if let deadline = rules.deadline, now >= deadline { return finish(.deadlineExceeded) }
        if hedgeState == .searching, !(rules.hedge?.allows(step.facts) ?? false) { return endSearch(resumeAt: step.position) }
        var step = step
        step.started = now
        let own = rules.attemptTimeout.map { now + $0 }
        let until: Duration?
        let call: InFlightCall
        switch (own, rules.deadline) {
        case (let own?, let deadline?):
            until = min(own, deadline)
            call = InFlightCall(step, cutIsAttemptTimeout: own < deadline)
        case (let own?, nil):
            until = own
            call = InFlightCall(step, cutIsAttemptTimeout: true)
        case (nil, let deadline):
            until = deadline
            call = InFlightCall(step, cutIsAttemptTimeout: false)
        }
        if hedgeState == .searching { return startHedge(call, until: until) }
        phase = .calling(call)
        if let hedgeAt = hedgeTime(after: step.position, from: now, until: until) {
            hedgeState = .armed
            return .callHedged(step.position, until: until, hedgeAt: hedgeAt)
        }
        return .call(step.position, until: until)
    }

    mutating func skip(_ step: Step, _ reason: RouteSkipReason, at now: Duration) -> Action {
        record(.skipped(reason), for: step, at: now)
        return advance(to: step.position + 1, at: now)
    }

    // MARK: - After the call

    /// Failed checks the policy falls back on move to the next model; others are reported with the answer.
    mutating func answered(
        _ call: InFlightCall, checks: OutputCheckResult?, usage: TokenUsage?, deliveredText: Bool, at now: Duration
    ) -> Action {
        // Decided on the results' names, so a shell that stored only names (the simulator) is judged the same.
        let falls = checks?.results.contains { !$0.passed && rules.outputFallback.selects($0.name) } ?? false
        let failures = checks.map { $0.adherent ? [] : $0.failures } ?? []
        guard falls, let checks else {
            record(.served, for: call.step, at: now, usage: usage)
            // A recovered answer is more than this model's own: it is not cached under its name.
            return finish(.served(position: call.position, fromCache: false, failures: failures, isFailing: false, cacheable: interruption == nil))
        }
        record(.failedChecks(checks.failures(selectedBy: rules.outputFallback)), for: call.step, at: now, usage: usage)
        let failedCount = checks.failedCount
        if best.map({ failedCount < $0.failedCount }) ?? true { best = (call.position, failedCount, failures) }
        if deliveredText {
            // Progressive streaming: the text is on screen; report the failures rather than switch models.
            return finish(.served(position: call.position, fromCache: false, failures: failures, isFailing: false, cacheable: false))
        }
        return advance(to: call.position + 1, at: now)
    }

    mutating func failed(_ call: InFlightCall, _ error: GenerationError, deliveredText: Bool, at now: Duration) -> Action {
        record(deliveredText ? .interrupted(error) : .failed(error), for: call.step, at: now)
        var sideEffects: [Action] = []
        switch error.kind {
        case .rateLimited:
            let cooldown = error.retryable == false ? rules.quotaCooldown : rules.rateLimitCooldown
            sideEffects.append(.coolDown(call.position, for: error.retryAfter ?? cooldown))
        case .authentication:
            sideEffects.append(.reportAuthenticationFailure(call.position, detail: error.detail ?? ""))
        case .contextWindowExceeded:
            if let window = call.facts.contextWindow { windowMustExceed = max(windowMustExceed ?? 0, window) }
        default:
            break
        }
        let verdict: Action
        if deliveredText, rules.streamRecovery == .off {
            verdict = finish(.streamInterrupted(error))
        } else if rules.action(for: error.kind) == .stop {
            verdict = finish(deliveredText || interruption != nil ? .streamInterrupted(error) : .stopped(error))
        } else {
            if deliveredText { beginRecovery(after: error) }
            verdict = advance(to: call.position + 1, at: now)
        }
        return perform(sideEffects, then: verdict)
    }

    /// The shown text's model failed and the next model takes over: no hedge races the recovering call.
    private mutating func beginRecovery(after error: GenerationError) {
        if interruption == nil { interruption = error }
        if hedgeState == .unused || hedgeState == .armed { hedgeState = .spent }
    }

    mutating func cut(_ call: InFlightCall, deliveredText: Bool, at now: Duration) -> Action {
        guard call.cutIsAttemptTimeout else {
            record(.cancelledAtDeadline, for: call.step, at: now)
            return finish(.deadlineExceeded)
        }
        let timeout = rules.attemptTimeout ?? .zero
        guard deliveredText else {
            record(.timedOut(after: timeout), for: call.step, at: now)
            return advance(to: call.position + 1, at: now)
        }
        // A stall after text: the stream is interrupted, and recovered like any other failure after text.
        let stall = GenerationError.timeout(model: call.modelID, after: timeout, phase: .deadline)
        record(.interrupted(stall), for: call.step, at: now)
        guard rules.streamRecovery != .off else { return finish(.streamInterrupted(stall)) }
        beginRecovery(after: stall)
        return advance(to: call.position + 1, at: now)
    }

    /// The end of an order that ran out: the best answer that failed its checks (or an error saying so, as
    /// `whenChecksFail` says), else the deadline if it has passed, else no eligible model.
    private mutating func exhausted(at now: Duration) -> Action {
        if let best {
            guard rules.whenChecksFail == .returnBest else { return finish(.outputChecksFailed) }
            return finish(.served(position: best.position, fromCache: false, failures: best.failures, isFailing: true, cacheable: false))
        }
        if let deadline = rules.deadline, now >= deadline { return finish(.deadlineExceeded) }
        if let interruption { return finish(.streamInterrupted(interruption)) }
        return finish(.noEligibleModel)
    }

    // MARK: - Bookkeeping

    mutating func perform(_ sideEffects: [Action], then verdict: Action) -> Action {
        guard let first = sideEffects.first else { return verdict }
        if case .performing(let queued, let then, let resume) = phase {
            // The verdict is itself the first of queued side effects (cancelling a race): these go before it.
            phase = .performing(effects: Array(sideEffects.dropFirst()) + [verdict] + queued, then: then, resume: resume)
            return first
        }
        // The verdict's own phase (inspecting the next model, or finished) resumes after the side effects.
        phase = .performing(effects: Array(sideEffects.dropFirst()), then: verdict, resume: phase)
        return first
    }

    /// Ends the walk; calls still in flight are recorded as losing (or cut at the deadline) and cancelled first.
    mutating func finish(_ outcome: Outcome) -> Action {
        phase = .finished
        guard !inFlight.isEmpty else { return .finish(outcome) }
        return perform(retireInFlight(servedLast: outcome.isServed, atDeadline: outcome == .deadlineExceeded), then: .finish(outcome))
    }

    mutating func record(_ outcome: RouteAttempt.Outcome, for step: Step, at now: Duration, usage: TokenUsage? = nil) {
        attempts.append(
            RouteAttempt(
                modelID: step.modelID, tier: step.facts.tier, outcome: outcome, startedAt: step.started, duration: now - step.started,
                usage: usage))
    }
}
