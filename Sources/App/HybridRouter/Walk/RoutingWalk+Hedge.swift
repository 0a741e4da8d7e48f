import HybridCore

/// Hedged requests ("The Tail at Scale", Dean & Barroso 2013) as steps of the walk. A call whose hedge time passes
/// without an answer keeps running while the walk inspects the next models with every usual rule; the first one
/// that may serve and that the hedge allows (tier, cost cap) is called alongside. From then on both calls report
/// their ends as `.raceEnded`: an answer passing the checks wins and the other call is cancelled; a failure, a cut
/// or an answer failing its checks leaves the other running. Under progressive streaming the first text wins.
extension RoutingWalk {
    /// Where a request's one hedge stands.
    enum HedgeState: Sendable, Equatable {
        /// No hedge yet: the next call may carry a hedge time.
        case unused
        /// The call in flight carries a hedge time.
        case armed
        /// The hedge time passed: the walk is inspecting models to race while the call runs.
        case searching
        /// A hedge was started, or looked for and none found.
        case spent
    }

    /// A model's call: the step that led to it (its `started` is when the call began) and what its limit is, the
    /// attempt's own timeout (try the next model) or the deadline. The call being decided, or one racing it.
    struct InFlightCall: Sendable {
        var step: Step
        var cutIsAttemptTimeout: Bool

        init(_ step: Step, cutIsAttemptTimeout: Bool) {
            self.step = step
            self.cutIsAttemptTimeout = cutIsAttemptTimeout
        }

        var position: Int { step.position }
        var modelID: String { step.modelID }
        var facts: ModelFacts { step.facts }

        func attempt(_ outcome: RouteAttempt.Outcome, at now: Duration) -> RouteAttempt {
            RouteAttempt(modelID: modelID, tier: facts.tier, outcome: outcome, startedAt: step.started, duration: now - step.started)
        }
    }

    /// When a call to the model at `position` starting `now` and cut at `until` should be hedged; nil: no hedge
    /// (none configured, already used, no model left to race, or the cut comes first).
    func hedgeTime(after position: Int, from now: Duration, until: Duration?) -> Duration? {
        guard let hedge = rules.hedge, hedgeState == .unused, max(position + 1, cursor) < count else { return nil }
        let at = now + hedge.after
        if let until, at >= until { return nil }
        return at
    }

    /// The hedge time passed: the call keeps running and the search for a model to race begins after it.
    mutating func hedgeDue(_ call: InFlightCall, at now: Duration) -> Action {
        hedgeState = .searching
        inFlight.append(call)
        return advance(to: call.position + 1, at: now)
    }

    /// The search found nothing to race: wait for the call in flight; fallback resumes at `resumeAt`.
    mutating func endSearch(resumeAt: Int) -> Action {
        hedgeState = .spent
        cursor = resumeAt
        phase = .racing
        return .awaitRace
    }

    /// The model of `call` passed every rule: race it.
    mutating func startHedge(_ call: InFlightCall, until: Duration?) -> Action {
        hedgeState = .spent
        cursor = call.position + 1
        inFlight.append(call)
        phase = .racing
        return .startHedge(call.position, until: until)
    }

    /// A call of the race ended: it is judged as any call is; while another runs, a loss waits for that one.
    mutating func raceEnded(position ended: Int, _ end: Event, at now: Duration) -> Action {
        guard let index = inFlight.firstIndex(where: { $0.position == ended }) else {
            preconditionFailure("no call in flight at position \(ended)")
        }
        let call = inFlight.remove(at: index)
        phase = .calling(call)
        return self.ended(call, end, at: now)
    }

    /// Progressive streaming: the first text decides the race; the other calls are cancelled.
    mutating func textStarted(position winner: Int, at now: Duration) -> Action {
        guard inFlight.contains(where: { $0.position == winner }) else { preconditionFailure("no call in flight at position \(winner)") }
        let losers = inFlight.filter { $0.position != winner }
        inFlight.removeAll { $0.position != winner }
        attempts.append(contentsOf: losers.map { $0.attempt(.lostRace, at: now) })
        phase = .racing
        return perform(losers.map { .cancel($0.position) }, then: .awaitRace)
    }

    /// The caller cancelled: every call in flight is recorded as cancelled (the shell tears them all down).
    mutating func abandonRace(at now: Duration) {
        attempts.append(contentsOf: inFlight.map { $0.attempt(.failed(.cancelled(model: $0.modelID)), at: now) })
        inFlight = []
    }

    /// The walk ends with calls in flight: they lost (or were cut at the deadline); the cancels to perform.
    /// A served answer's record stays last.
    mutating func retireInFlight(servedLast: Bool, atDeadline: Bool) -> [Action] {
        let outcome: RouteAttempt.Outcome = atDeadline ? .cancelledAtDeadline : .lostRace
        let records = inFlight.map { $0.attempt(outcome, at: lastEventAt) }
        attempts.insert(contentsOf: records, at: servedLast && !attempts.isEmpty ? attempts.count - 1 : attempts.count)
        defer { inFlight = [] }
        return inFlight.map { .cancel($0.position) }
    }
}

extension RoutingWalk.Outcome {
    /// Whether an answer is returned.
    var isServed: Bool {
        if case .served = self { true } else { false }
    }
}
