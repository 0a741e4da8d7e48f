@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridValidation
import Testing

/// A scripted shell for `RoutingWalk`: per position, the model's facts and what a call does, on a virtual clock in
/// milliseconds. No router, no task, no sleep: every rule is exercised by feeding events.
struct WalkScript {
    enum Call {
        /// Answers after `ms`, failing the named checks.
        case answer(ms: Int, failing: [String] = [], deliveredText: Bool = false)
        /// Fails after `ms`.
        case fail(GenerationError, ms: Int = 10, deliveredText: Bool = false)
    }

    var facts: [RoutingWalk.ModelFacts?]
    var calls: [Call]
    var cached: Set<Int> = []
    var unavailable: Set<Int> = []
    var spend: Result<Double, SpendLedgerError> = .success(0)

    struct Run {
        var outcome: RoutingWalk.Outcome
        var attempts: [RouteAttempt]
        var actions: [RoutingWalk.Action]
        var elapsedMs: Int
        var kinds: [String] { attempts.map(\.outcome.kind.description) }
    }

    func run(_ rules: RoutingWalk.Rules) -> Run {
        var walk = RoutingWalk(rules: rules, count: facts.count)
        var clock = ScriptClock()
        var actions: [RoutingWalk.Action] = []
        var action = walk.start(at: .zero)
        while true {
            actions.append(action)
            let event: RoutingWalk.Event
            switch action {
            case .finish(let outcome):
                return Run(outcome: outcome, attempts: walk.attempts, actions: actions, elapsedMs: clock.now)
            case .inspect(let p): event = .inspected(id: "m\(p)", facts: facts[p])
            case .lookUpCache(let p): event = .cacheLookedUp(hit: cached.contains(p))
            case .checkAvailability(let p): event = .availability(unavailable.contains(p) ? .notRunning("down") : nil)
            case .readSpend: event = .spendRead(spend)
            case .coolDown, .reportAuthenticationFailure: event = .performed
            case .call(let p, let until):
                event = clock.finish(clock.start(calls[p], position: p, until: until.map(Self.ms)))
            case .callHedged(let p, let until, let hedgeAt):
                let call = clock.start(calls[p], position: p, until: until.map(Self.ms))
                // Text on screen disarms the hedge (progressive streaming), as the router's shell does.
                if call.endsAt <= Self.ms(hedgeAt) || (call.textAt.map { $0 <= Self.ms(hedgeAt) } ?? false) {
                    event = clock.finish(call)
                } else {
                    clock.inFlight.append(call)
                    clock.now = Self.ms(hedgeAt)
                    event = .hedgeDue
                }
            case .startHedge(let p, let until):
                clock.inFlight.append(clock.start(calls[p], position: p, until: until.map(Self.ms)))
                event = clock.nextRaceEvent()
            case .awaitRace:
                event = clock.nextRaceEvent()
            case .cancel(let p):
                clock.inFlight.removeAll { $0.position == p }
                event = .performed
            }
            action = walk.next(event, at: .milliseconds(clock.now))
        }
    }

    static func ms(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// The virtual clock and the calls running on it; a race reports the earliest end (or first text) first.
    struct ScriptClock {
        struct Running {
            var position: Int
            var endsAt: Int
            var event: RoutingWalk.Event
            /// Progressive streaming: when the first text goes out (halfway through the call); nil once reported.
            var textAt: Int?
        }

        var now = 0
        var inFlight: [Running] = []

        func start(_ call: Call, position: Int, until: Int?) -> Running {
            let (ms, delivered): (Int, Bool) =
                switch call {
                case .answer(let ms, _, let d): (ms, d)
                case .fail(_, let ms, let d): (ms, d)
                }
            let textAt = delivered ? now + ms / 2 : nil
            if let until, now + ms > until {
                return Running(position: position, endsAt: until, event: .cut(deliveredText: delivered), textAt: textAt.flatMap { $0 < until ? $0 : nil })
            }
            let event: RoutingWalk.Event
            switch call {
            case .answer(_, let failing, let d):
                let results = failing.map { ConstraintResult(name: $0, passed: false, observed: .null, limit: .null, message: $0) }
                event = .answered(checks: OutputCheckResult(results: results, parsed: .null, schemaViolations: []), usage: nil, deliveredText: d)
            case .fail(let error, _, let d):
                event = .failed(error, deliveredText: d)
            }
            return Running(position: position, endsAt: now + ms, event: event, textAt: textAt)
        }

        mutating func finish(_ call: Running) -> RoutingWalk.Event {
            now = max(now, call.endsAt)
            return call.event
        }

        mutating func nextRaceEvent() -> RoutingWalk.Event {
            let next = inFlight.indices.min { a, b in
                (inFlight[a].textAt ?? inFlight[a].endsAt) < (inFlight[b].textAt ?? inFlight[b].endsAt)
            }!
            if let textAt = inFlight[next].textAt {
                now = max(now, textAt)
                inFlight[next].textAt = nil
                return .textStarted(position: inFlight[next].position)
            }
            let call = inFlight.remove(at: next)
            return .raceEnded(position: call.position, finish(call))
        }
    }
}

@Suite("Routing walk, without I/O")
struct RoutingWalkTests {
    static let cloud = RoutingWalk.ModelFacts(tier: .thirdParty, contextWindow: 8_000)
    static let device = RoutingWalk.ModelFacts(tier: .onDevice, contextWindow: 4_000)

    static func served(_ position: Int, failures: Int = 0) -> (RoutingWalk.Outcome) -> Bool {
        { if case .served(let p, _, let f, false, _) = $0 { p == position && f.count == failures } else { false } }
    }

    @Test("skips are judged in order: unknown, privacy, window, then the cache beats cooldown, availability and budget")
    func skipOrder() {
        var rules = RoutingWalk.Rules()
        rules.privacy = .sensitive
        rules.neededWindow = 5_000
        rules.usesCache = true
        rules.checksAvailability = true
        rules.budgetCapUSD = 1
        var resting = Self.device
        resting.contextWindow = 6_000
        resting.coolingDownFor = .seconds(5)
        var metered = resting
        metered.coolingDownFor = nil
        metered.isMetered = true
        let script = WalkScript(
            facts: [nil, Self.cloud, Self.device, resting, resting, metered, metered],
            calls: Array(repeating: .answer(ms: 5), count: 7), cached: [4], unavailable: [])
        let run = script.run(rules)
        #expect(run.attempts.map(\.outcome.skipReason) == [.unknownModel, .privacy(tier: .thirdParty, privacy: .sensitive),
            .contextWindowTooSmall(neededTokens: 5_000, window: 4_000), .coolingDown(remaining: .seconds(5)), nil])
        #expect(run.kinds.last == "servedFromCache")
        #expect(Self.served(4)(run.outcome))

        var broke = script
        broke.cached = []
        broke.facts[4] = metered
        broke.facts[4]?.isMetered = false
        broke.unavailable = [4]
        broke.spend = .success(2)
        let over = broke.run(rules)
        #expect(over.attempts[4].outcome.skipReason == .unavailable(.notRunning("down")))
        #expect(over.attempts[5].outcome.skipReason == .overBudget(spentUSD: 2, capUSD: 1))
        #expect(over.actions.filter { $0 == .readSpend }.count == 1, "the ledger is read once per walk")
        #expect(over.outcome == .noEligibleModel)

        broke.spend = .failure(SpendLedgerError(.unavailable, "ledger: cannot read: locked"))
        #expect(broke.run(rules).attempts[5].outcome.skipReason == .budgetUnknown(SpendLedgerError(.unavailable, "ledger: cannot read: locked").description))
    }

    @Test("the attempt timeout moves on; the deadline ends the walk, mid-call or before the next call")
    func timers() {
        var rules = RoutingWalk.Rules()
        rules.attemptTimeout = .milliseconds(1_000)
        rules.deadline = .milliseconds(2_500)
        let slow = WalkScript(facts: [Self.cloud, Self.cloud, Self.cloud], calls: [.answer(ms: 5_000), .answer(ms: 900), .answer(ms: 1)])
        let run = slow.run(rules)
        #expect(run.kinds == ["timedOut", "served"])
        #expect(run.actions.contains(.call(0, until: .milliseconds(1_000))))
        #expect(run.elapsedMs == 1_900)

        let late = WalkScript(facts: [Self.cloud, Self.cloud, Self.cloud], calls: [.answer(ms: 5_000), .answer(ms: 5_000), .answer(ms: 1)])
        let cut = late.run(rules)
        // The second call's own timeout (2,000 ms) comes before the deadline: timed out; the third starts at 2,000
        // and the deadline (2,500) cuts its limit.
        #expect(cut.kinds == ["timedOut", "timedOut", "served"])
        #expect(cut.actions.contains(.call(2, until: .milliseconds(2_500))))

        rules.attemptTimeout = nil
        let stuck = late.run(rules)
        #expect(stuck.kinds == ["cancelledAtDeadline"])
        #expect(stuck.outcome == .deadlineExceeded)

        let spent = WalkScript(
            facts: [Self.cloud, Self.cloud], calls: [.fail(.serverError(model: "m0", status: 500, detail: ""), ms: 2_600), .answer(ms: 1)])
        rules.deadline = .milliseconds(3_000)
        #expect(spent.run(rules).kinds == ["failed", "served"])
        rules.deadline = .milliseconds(2_600)
        let over = spent.run(rules)
        #expect(over.outcome == .deadlineExceeded)
        #expect(over.actions.filter { if case .call = $0 { true } else { false } }.count == 1, "no call after the deadline")
    }

    @Test("errors: a stop kind ends the walk; a rate limit rests the model; a rejected key is reported; a full window bounds the next")
    func errors() {
        let refusal = GenerationError.refusal(model: "m0", detail: "no")
        var rules = RoutingWalk.Rules()
        rules.actions[.refusal] = .stop
        let stop = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.fail(refusal), .answer(ms: 1)]).run(rules)
        #expect(stop.outcome == .stopped(refusal))

        rules.rateLimitCooldown = .seconds(30)
        rules.quotaCooldown = .seconds(3_600)
        let limits: [(GenerationError, Duration)] = [
            (.rateLimited(model: "m0", retryAfter: .seconds(7), retryable: true, detail: ""), .seconds(7)),
            (.rateLimited(model: "m0", retryAfter: nil, retryable: true, detail: ""), .seconds(30)),
            (.rateLimited(model: "m0", retryAfter: nil, retryable: false, detail: ""), .seconds(3_600)),
        ]
        for (error, rest) in limits {
            let run = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.fail(error), .answer(ms: 1)]).run(rules)
            #expect(run.actions.contains(.coolDown(0, for: rest)))
            #expect(Self.served(1)(run.outcome))
        }
        let key = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.fail(.authentication(model: "m0", detail: "401")), .answer(ms: 1)])
        #expect(key.run(rules).actions.contains(.reportAuthenticationFailure(0, detail: "401")))

        var big = Self.cloud
        big.contextWindow = 16_000
        let window = WalkScript(
            facts: [Self.cloud, Self.device, big], calls: [.fail(.contextWindowExceeded(model: "m0", detail: "")), .answer(ms: 1), .answer(ms: 1)])
        let run = window.run(rules)
        #expect(run.attempts[1].outcome.skipReason == .windowNotLarger(window: 4_000, mustExceed: 8_000))
        #expect(Self.served(2)(run.outcome))
    }

    @Test("output checks: selected failures fall back, others are reported; at the end the fewest failures win, or throw")
    func checks() {
        var rules = RoutingWalk.Rules()
        rules.outputFallback = OutputCheckSelection(schema: true, allConstraints: false)
        let reported = WalkScript(facts: [Self.cloud], calls: [.answer(ms: 1, failing: ["max_words"])]).run(rules)
        #expect(Self.served(0, failures: 1)(reported.outcome))

        let script = WalkScript(
            facts: [Self.cloud, Self.cloud, Self.cloud],
            calls: [.answer(ms: 1, failing: ["schema_valid", "max_words"]), .answer(ms: 1, failing: ["schema_valid"]),
                .answer(ms: 1, failing: ["json_parses"])])
        let best = script.run(rules)
        #expect(best.kinds == ["failedChecks", "failedChecks", "failedChecks"])
        guard case .served(1, false, _, true, false) = best.outcome else {
            Issue.record("expected the second answer as the failing best, got \(best.outcome)")
            return
        }
        rules.whenChecksFail = .throwError
        #expect(script.run(rules).outcome == .outputChecksFailed)
    }

    @Test("progressive streaming without recovery: once text is out, a failure or a cut interrupts and failed checks are only reported")
    func deliveredText() {
        var rules = RoutingWalk.Rules()
        rules.outputFallback = .all
        rules.attemptTimeout = .milliseconds(100)
        rules.streamRecovery = .off
        let limited = GenerationError.rateLimited(model: "m0", retryAfter: .seconds(2), retryable: true, detail: "")
        let failed = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.fail(limited, deliveredText: true), .answer(ms: 1)]).run(rules)
        #expect(failed.actions.contains(.coolDown(0, for: .seconds(2))), "the model still rests")
        #expect(failed.outcome == .streamInterrupted(limited))

        let cut = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.answer(ms: 500, deliveredText: true), .answer(ms: 1)]).run(rules)
        #expect(cut.outcome == .streamInterrupted(.timeout(model: "m0", after: .milliseconds(100), phase: .deadline)))

        let shown = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.answer(ms: 1, failing: ["max_words"], deliveredText: true), .answer(ms: 1)])
        #expect(shown.run(rules).outcome == .served(position: 0, fromCache: false, failures: shown.run(rules).attempts[0].outcome.checkFailures, isFailing: false, cacheable: false))
    }

    @Test("stream recovery: a failure or a stall after text moves on to the next model, uncached and unhedged; a stopping kind or an order that runs out interrupts")
    func recovery() {
        var rules = RoutingWalk.Rules()
        rules.attemptTimeout = .milliseconds(100)
        rules.usesCache = true
        rules.hedge = RoutingWalk.Hedge(after: .milliseconds(50))
        let broken = GenerationError.serverError(model: "m0", status: nil, detail: "connection reset")
        let failed = WalkScript(facts: [Self.cloud, Self.cloud, Self.cloud], calls: [.fail(broken, deliveredText: true), .answer(ms: 10)]).run(rules)
        #expect(failed.kinds == ["interrupted", "served"])
        #expect(failed.outcome == .served(position: 1, fromCache: false, failures: [], isFailing: false, cacheable: false))
        #expect(!failed.actions.contains(.lookUpCache(1)), "a cached answer would not continue the text shown")
        #expect(!failed.actions.contains { if case .callHedged(1, _, _) = $0 { true } else { false } }, "the recovering call is not raced")

        rules.hedge = nil  // the script cannot say the text came before the hedge time
        let stalled = WalkScript(facts: [Self.cloud, Self.cloud], calls: [.answer(ms: 500, deliveredText: true), .answer(ms: 1)]).run(rules)
        #expect(stalled.kinds == ["interrupted", "served"])
        #expect(stalled.attempts[0].outcome.error == .timeout(model: "m0", after: .milliseconds(100), phase: .deadline))

        let alone = WalkScript(facts: [Self.cloud], calls: [.fail(broken, deliveredText: true)]).run(rules)
        #expect(alone.outcome == .streamInterrupted(broken), "nothing left to recover with")
        let bothFail = WalkScript(
            facts: [Self.cloud, Self.cloud], calls: [.fail(broken, deliveredText: true), .fail(.serverError(model: "m1", status: 503, detail: ""))]).run(rules)
        #expect(bothFail.outcome == .streamInterrupted(broken), "the first interruption is what the app is told")

        let refused = GenerationError.refusal(model: "m1", detail: "no")
        rules.actions[.refusal] = .stop
        let stopped = WalkScript(facts: [Self.cloud, Self.cloud, Self.cloud], calls: [.fail(broken, deliveredText: true), .fail(refused), .answer(ms: 1)]).run(rules)
        #expect(stopped.outcome == .streamInterrupted(refused), "text is on screen: a stop is an interruption, not a plain stop")
    }

    /// Every combination of three models' call outcomes under every combination of rules: 7³ × 2⁴ = 5,488 walks.
    @Test("enumerated: whatever the outcomes and rules, the walk ends once, calls each model at most once and serves the last attempt")
    func enumerated() {
        let calls: [WalkScript.Call] = [
            .answer(ms: 300), .answer(ms: 300, failing: ["max_words"]), .answer(ms: 300, failing: ["schema_valid"]),
            .answer(ms: 1_800), .fail(.serverError(model: "m", status: 503, detail: "")), .fail(.refusal(model: "m", detail: "")),
            .fail(.rateLimited(model: "m", retryAfter: nil, retryable: true, detail: "")),
        ]
        var walks = 0
        for a in calls {
            for b in calls {
                for c in calls {
                    for flags in 0..<16 {
                        var rules = RoutingWalk.Rules()
                        if flags & 1 != 0 { rules.actions[.refusal] = .stop }
                        if flags & 2 != 0 { rules.attemptTimeout = .milliseconds(1_000) }
                        if flags & 4 != 0 { rules.deadline = .milliseconds(2_000) }
                        if flags & 8 != 0 { rules.whenChecksFail = .throwError }
                        rules.outputFallback = OutputCheckSelection(schema: true, allConstraints: false)
                        let run = WalkScript(facts: [Self.cloud, Self.cloud, Self.cloud], calls: [a, b, c]).run(rules)
                        walks += 1
                        let served = run.attempts.filter { $0.outcome.kind == .served }
                        #expect(served.count <= 1)
                        if !served.isEmpty { #expect(run.attempts.last?.outcome.kind == .served) }
                        #expect(run.attempts.count <= 3)
                        if let deadline = rules.deadline { #expect(run.elapsedMs <= Int(deadline.components.seconds * 1000)) }
                        if case .served(let p, _, _, false, _) = run.outcome { #expect(run.attempts.last?.modelID == "m\(p)") }
                        if case .stopped(let error) = run.outcome { #expect(error.kind == .refusal && flags & 1 != 0) }
                    }
                }
            }
        }
        #expect(walks == 5_488)
    }
}
