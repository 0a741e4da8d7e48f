@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridValidation
import Testing

/// Hedged requests as walk steps, on the script's virtual clock: the hedge timer, the search for a model to race
/// (every usual rule, plus the hedge's tiers and cost cap), the race's winner and the cancelled loser.
@Suite("Routing walk: hedged requests")
struct RoutingWalkHedgeTests {
    static let cloud = RoutingWalkTests.cloud
    static let device = RoutingWalkTests.device

    static func hedged(after ms: Int = 300, _ edit: (inout RoutingWalk.Rules) -> Void = { _ in }) -> RoutingWalk.Rules {
        var rules = RoutingWalk.Rules()
        rules.hedge = .init(after: .milliseconds(ms))
        rules.outputFallback = OutputCheckSelection(schema: true, allConstraints: false)
        edit(&rules)
        return rules
    }

    static func startedHedges(_ run: WalkScript.Run) -> [Int] {
        run.actions.compactMap { if case .startHedge(let p, _) = $0 { p } else { nil } }
    }

    @Test("a late call is raced by the next model; the first passing answer wins and the other call is cancelled")
    func lateCallIsRaced() {
        let run = WalkScript(facts: [Self.device, Self.cloud], calls: [.answer(ms: 2_000), .answer(ms: 400)]).run(Self.hedged())
        #expect(run.actions.prefix(3) == [.inspect(0), .callHedged(0, until: nil, hedgeAt: .milliseconds(300)), .inspect(1)])
        #expect(Self.startedHedges(run) == [1])
        #expect(run.actions.contains(.cancel(0)))
        #expect(run.kinds == ["lostRace", "served"], "the served record stays last")
        #expect(run.attempts[0].duration == .milliseconds(700) && run.attempts[1].startedAt == .milliseconds(300))
        #expect(RoutingWalkTests.served(1)(run.outcome))
        #expect(run.elapsedMs == 700)
    }

    @Test("a call answering before its hedge time is not raced, and the unhedged walk is unchanged")
    func fastCallIsNotRaced() {
        let script = WalkScript(facts: [Self.device, Self.cloud], calls: [.answer(ms: 200), .answer(ms: 400)])
        let run = script.run(Self.hedged())
        #expect(Self.startedHedges(run).isEmpty)
        #expect(run.kinds == ["served"])
        let plain = script.run(Self.hedged { $0.hedge = nil })
        #expect(plain.actions == [.inspect(0), .call(0, until: nil), .finish(run.outcome)])
        // A hedge that would come after the attempt's own cut is not armed.
        let late = script.run(Self.hedged(after: 1_000) { $0.attemptTimeout = .milliseconds(1_000) })
        #expect(late.actions.contains(.call(0, until: .milliseconds(1_000))))
    }

    @Test("an answer failing its checks does not end the race; when both fail, the walk goes on past the raced model")
    func failingAnswerKeepsRacing() {
        let script = WalkScript(
            facts: [Self.device, Self.cloud, Self.cloud],
            calls: [.answer(ms: 2_000), .answer(ms: 400, failing: ["schema_valid"]), .answer(ms: 100)])
        let run = script.run(Self.hedged())
        #expect(run.kinds == ["failedChecks", "served"])
        #expect(RoutingWalkTests.served(0)(run.outcome))
        #expect(run.elapsedMs == 2_000)

        var bothFail = script
        bothFail.calls[0] = .answer(ms: 2_000, failing: ["json_parses"])
        let next = bothFail.run(Self.hedged())
        #expect(next.kinds == ["failedChecks", "failedChecks", "served"])
        #expect(next.actions.filter { $0 == .inspect(1) }.count == 1, "the raced model is not inspected again")
        #expect(next.actions.contains(.call(2, until: nil)), "one hedge per request: the third call carries none")
        #expect(RoutingWalkTests.served(2)(next.outcome))
    }

    @Test("privacy skips as for any call; the hedge's tiers and cost cap only limit what is raced, not what falls back")
    func privacyTiersAndCost() {
        var onPremises = Self.cloud
        onPremises.tier = .privateCloud
        let script = WalkScript(
            facts: [Self.device, Self.cloud, onPremises], calls: [.answer(ms: 2_000), .answer(ms: 10), .answer(ms: 50)])
        let privacy = script.run(Self.hedged { $0.privacy = .standard })
        #expect(privacy.attempts.first?.outcome.skipReason == .privacy(tier: .thirdParty, privacy: .standard))
        #expect(Self.startedHedges(privacy) == [2])
        #expect(RoutingWalkTests.served(2)(privacy.outcome))

        var failing = script
        failing.calls[0] = .fail(.serverError(model: "m0", status: 500, detail: ""), ms: 2_000)
        let tiers = failing.run(Self.hedged { $0.hedge?.tiers = [.onDevice] })
        #expect(Self.startedHedges(tiers).isEmpty)
        #expect(tiers.actions.contains(.awaitRace))
        #expect(tiers.kinds == ["failed", "served"], "model 1 was not raced but still serves as the fallback")
        #expect(RoutingWalkTests.served(1)(tiers.outcome))

        var dear = failing
        dear.facts[1]?.estimatedCostUSD = 0.01
        dear.facts[2]?.estimatedCostUSD = 0.0001
        let capped = dear.run(Self.hedged { $0.hedge?.maxExtraCostUSD = 0.001 })
        #expect(Self.startedHedges(capped).isEmpty, "the search stops at the first model that may serve")
        let cheapEnough = dear.run(Self.hedged { $0.hedge?.maxExtraCostUSD = 0.1 })
        #expect(cheapEnough.actions.contains(.startHedge(1, until: nil)))
    }

    @Test("errors in a race: a fallback error leaves the other call running; a stop kind cancels it")
    func errorsInARace() {
        let refusal = GenerationError.refusal(model: "m1", detail: "no")
        let script = WalkScript(facts: [Self.device, Self.cloud], calls: [.answer(ms: 2_000), .fail(refusal, ms: 100)])
        let goesOn = script.run(Self.hedged())
        #expect(goesOn.kinds == ["failed", "served"])
        #expect(RoutingWalkTests.served(0)(goesOn.outcome))

        let stops = script.run(Self.hedged { $0.actions[.refusal] = .stop })
        #expect(stops.outcome == .stopped(refusal))
        #expect(stops.kinds == ["failed", "lostRace"])
        #expect(stops.actions.suffix(2) == [.cancel(0), .finish(.stopped(refusal))])

        let limited = GenerationError.rateLimited(model: "m1", retryAfter: .seconds(3), retryable: true, detail: "")
        let rests = WalkScript(facts: [Self.device, Self.cloud], calls: [.answer(ms: 2_000), .fail(limited)]).run(Self.hedged())
        #expect(rests.actions.contains(.coolDown(1, for: .seconds(3))))
        #expect(RoutingWalkTests.served(0)(rests.outcome))
    }

    @Test("the deadline cuts both calls; the attempt timeout cuts each on its own; the caller's cancel ends both")
    func timersInARace() {
        let script = WalkScript(facts: [Self.device, Self.cloud, Self.cloud], calls: [.answer(ms: 5_000), .answer(ms: 5_000), .answer(ms: 10)])
        let deadline = script.run(Self.hedged { $0.deadline = .milliseconds(1_000) })
        #expect(deadline.outcome == .deadlineExceeded)
        #expect(deadline.kinds == ["cancelledAtDeadline", "cancelledAtDeadline"])
        #expect(deadline.elapsedMs == 1_000)

        let timeouts = script.run(Self.hedged { $0.attemptTimeout = .milliseconds(1_000) })
        #expect(timeouts.actions.contains(.startHedge(1, until: .milliseconds(1_300))))
        #expect(timeouts.kinds == ["timedOut", "timedOut", "served"])
        #expect(timeouts.elapsedMs == 1_310)

        var walk = RoutingWalk(rules: Self.hedged(), count: 2)
        _ = walk.start(at: .zero)
        _ = walk.next(.inspected(id: "m0", facts: Self.device), at: .zero)
        _ = walk.next(.hedgeDue, at: .milliseconds(300))
        _ = walk.next(.inspected(id: "m1", facts: Self.cloud), at: .milliseconds(300))
        #expect(walk.next(.callerCancelled, at: .milliseconds(400)) == .finish(.cancelled))
        #expect(walk.attempts.map(\.outcome) == [.failed(.cancelled(model: "m0")), .failed(.cancelled(model: "m1"))])
    }

    @Test("progressive streaming: the first model to send text wins and the other is cancelled at once")
    func firstTextWins() {
        let script = WalkScript(
            facts: [Self.device, Self.cloud], calls: [.answer(ms: 3_000, deliveredText: true), .answer(ms: 400, deliveredText: true)])
        let run = script.run(Self.hedged(after: 1_000))
        // m0's text would start at 1,500 ms, after the hedge; m1's at 1,200 ms.
        #expect(run.actions.contains(.cancel(0)))
        #expect(run.kinds == ["lostRace", "served"])
        #expect(run.attempts[0].duration == .milliseconds(1_200), "lost when m1's first text went out")
        #expect(RoutingWalkTests.served(1)(run.outcome))
        #expect(run.elapsedMs == 1_400)

        // Text before the hedge time disarms it: the shell never reports .hedgeDue.
        #expect(Self.startedHedges(script.run(Self.hedged(after: 1_600))).isEmpty)
    }

    @Test("a cached answer of the model to race is returned at once and the call in flight is cancelled")
    func cachedRacedModel() {
        var script = WalkScript(facts: [Self.device, Self.cloud], calls: [.answer(ms: 2_000), .answer(ms: 400)])
        script.cached = [1]
        var rules = Self.hedged()
        rules.usesCache = true
        let run = script.run(rules)
        #expect(run.kinds == ["lostRace", "servedFromCache"])
        #expect(run.actions.suffix(2) == [.cancel(0), .finish(run.outcome)])
    }

    /// Every combination of three calls (fast, slow, failing checks, failing, progressive) with a hedge at 500 ms,
    /// with and without an attempt timeout, a deadline and a stop on refusals: 8³ × 2³ = 4,096 walks.
    @Test("enumerated: one hedge at most, each model called once, every started call ends in exactly one record")
    func enumerated() {
        let calls: [WalkScript.Call] = [
            .answer(ms: 200), .answer(ms: 900), .answer(ms: 1_800, failing: ["schema_valid"]), .answer(ms: 700, failing: ["max_words"]),
            .fail(.serverError(model: "m", status: 503, detail: ""), ms: 800), .fail(.refusal(model: "m", detail: ""), ms: 600),
            .answer(ms: 1_200, deliveredText: true), .answer(ms: 3_000),
        ]
        var walks = 0
        for a in calls {
            for b in calls {
                for c in calls {
                    for flags in 0..<8 {
                        let rules = Self.hedged(after: 500) { rules in
                            if flags & 1 != 0 { rules.actions[.refusal] = .stop }
                            if flags & 2 != 0 { rules.attemptTimeout = .milliseconds(1_000) }
                            if flags & 4 != 0 { rules.deadline = .milliseconds(2_000) }
                        }
                        let run = WalkScript(facts: [Self.device, Self.cloud, Self.cloud], calls: [a, b, c]).run(rules)
                        walks += 1
                        Self.checkInvariants(run, deadlineMs: flags & 4 != 0 ? 2_000 : nil)
                    }
                }
            }
        }
        #expect(walks == 4_096)
    }

    static func checkInvariants(_ run: WalkScript.Run, deadlineMs: Int?) {
        var started: [Int] = []
        var cancelled: [Int] = []
        for action in run.actions {
            switch action {
            case .call(let p, _), .callHedged(let p, _, _), .startHedge(let p, _): started.append(p)
            case .cancel(let p): cancelled.append(p)
            default: break
            }
        }
        #expect(Set(started).count == started.count, "each model is called at most once")
        #expect(startedHedges(run).count <= 1)
        #expect(Set(cancelled).isSubset(of: Set(started)))
        let called = run.attempts.filter(\.calledModel).map(\.modelID)
        #expect(called.sorted() == started.map { "m\($0)" }.sorted(), "every started call has exactly one record")
        #expect(run.attempts.filter { $0.outcome.kind == .served }.count <= 1)
        if case .served(let p, false, _, false, _) = run.outcome { #expect(run.attempts.last?.modelID == "m\(p)") }
        if let deadlineMs { #expect(run.elapsedMs <= deadlineMs) }
    }
}
