public import HybridConfig
import HybridCore
import HybridRouter
public import HybridReport
public import HybridStore

/// Replays routing policies over the results a run already stored (every case ran on every arm): no model calls.
///
/// Each (case, repeat) goes through the router's own `RoutingWalk` (see `SimulatedRequest`), so the rules are
/// the router's: the first arm whose stored result passes the fallback conditions serves, and the latency and
/// cost of every attempt made on the way are charged. Latency is the stored `totalMs` of each attempt (retry
/// backoff excluded, as in reports); an attempt over a `timeout` threshold or the deadline is charged up to the
/// cut and serves nothing. A hedge (`ReplayPolicy.hedge`) runs two calls on one clock: a request's latency is the
/// time its walk ended, and the raced call and the cancelled loser are both charged in full. Cost is charged in full for every attempt, timed out or not (a conservative bound: a
/// cut request still pays for its prompt). A quality floor is an output check only the simulator can run.
/// When no arm passes, the request counts in "no arm passed" and the user gets what the router returns then: the
/// answer failing the fewest checks (`whenChecksFail: returnBest`), else nothing (quality 0).
public struct RouteSimulator: Sendable {
    /// The stored run's outcomes every policy is replayed over.
    public let table: RunOutcomeTable
    /// Resamples, seed and confidence level of every interval.
    public var bootstrap: BootstrapConfiguration
    /// Context windows by model id, from the config when known: after a stored context-window error the router
    /// tries only models with a larger window, and so does the simulation.
    public var contextWindows: [String: Int]
    /// Per case index, what each model id is expected to cost for the case's input as the router estimates it
    /// (`estimateCallCosts`); a hedge's per-call cap (`maxExtraCostPerRequestUSD`) judges a raced model by it, as
    /// the router does. Empty: by the stored bill of the case's result.
    public private(set) var expectedCosts: [Int: [String: Double]] = [:]
    /// Per case index, the input rule that routes the case and its arms (`applyInputRules`); a case without one
    /// walks the policy's order.
    var ruleRoutes: [Int: RuleRoute] = [:]

    /// Creates a simulator over `table`; the table is not read from the store again.
    public init(table: RunOutcomeTable, bootstrap: BootstrapConfiguration = .standard, contextWindows: [String: Int] = [:]) {
        self.table = table
        self.bootstrap = bootstrap
        self.contextWindows = contextWindows
    }

    /// Reads `run` from the store in one pass; see `RunOutcomeTable.load`.
    public static func load(
        from store: any ResultStore, run: String, feature: String? = nil, bootstrap: BootstrapConfiguration = .standard
    ) async throws(RecommendError) -> RouteSimulator {
        RouteSimulator(table: try await RunOutcomeTable.load(from: store, run: run, feature: feature), bootstrap: bootstrap)
    }

    /// The figures of `policy` over the run, with intervals.
    public func simulate(_ policy: ReplayPolicy) throws(RecommendError) -> SimulationResult {
        let (variant, arms) = try resolve(policy)
        let trace = try self.trace(arms: arms, policy: policy)
        return SimulationResult(table: table, policy: policy, variant: variant, trace: trace, configuration: bootstrap)
    }

    /// The variant and arm indices `policy` names; throws when the run lacks an arm.
    func resolve(_ policy: ReplayPolicy) throws(RecommendError) -> (variant: String, arms: [Int]) {
        guard !policy.order.isEmpty else { throw .emptyOrder }
        let variant: String
        if let named = policy.variant {
            variant = named
        } else if policy.order.allSatisfy({ $0.contains("@") }) {
            variant = table.arms.first { $0.id == policy.order[0] }?.variant ?? ""
        } else {
            let variants = table.variants
            guard variants.count == 1 else { throw .ambiguousVariant(variants: variants) }
            variant = variants[0]
        }
        var indices: [Int] = []
        for id in policy.armIDs(variant: variant) {
            guard let index = table.armIndex(of: id) else { throw .unknownArm(arm: id, known: table.arms.map(\.id)) }
            indices.append(index)
        }
        return (variant, indices)
    }

    /// Fills ``expectedCosts`` from the router's own estimate (`Router.plannedCosts`: the prompt rendered from each
    /// case's `inputs` under `document`, and the reserved output, at the model's prices), so that the simulation, the
    /// recommendation and the router judge a per-call cost cap on one figure. Cases without inputs get none (their
    /// stored bill is used); returns how many cases got an estimate.
    @discardableResult
    public mutating func estimateCallCosts(
        document: HybridConfigDocument, inputs: [String: [String: String]], labels: [String: String] = [:],
        installId: String = "router-check"
    ) async -> Int {
        let planner = Router(unvalidated: .fixed(document), models: .models([:]), installId: installId, eventLabels: labels, onIncident: { _ in })
        for (index, key) in table.cases.enumerated() {
            guard let input = inputs[key.caseID] else { continue }
            expectedCosts[index] = try? await planner.plannedCosts(feature: table.feature, input: input)
        }
        return expectedCosts.count
    }

    /// Walks every case through `arms` under `policy`'s conditions.
    /// - Parameter expectedCosts: per case index, what each model id is expected to cost as the router estimates it
    ///   (`Router.plannedCosts`); the hedge's cost cap judges a raced model by it. nil: ``expectedCosts``; a case
    ///   without one: by its stored cost.
    /// - Parameter streams: replay `Router.stream` rather than `generate`: under progressive streaming a call's text
    ///   arrives at its stored time to first token, which decides a hedged race and whether a cut call had shown text.
    func trace(
        arms: [Int], policy: ReplayPolicy, expectedCosts: [Int: [String: Double]]? = nil, streams: Bool = false
    ) throws(RecommendError) -> RouteTrace {
        let expectedCosts = expectedCosts ?? self.expectedCosts
        var rules = SimulatedRequest(policy: policy, table: table, contextWindows: contextWindows)
        rules.streams = streams && rules.rules.streaming == .progressive
        let traced = tracedArms(arms)
        var trace = RouteTrace(arms: traced, scorerCount: table.scorers.count)
        // The router's share cap, request after request in the run's order, as one router would count them.
        let shareCap = policy.hedge?.maxHedgedShare
        var shared: (requests: Int, hedged: Int)?
        for (caseIndex, row) in table.outcomes.enumerated() {
            let mayHedge = shareCap.map { HedgeShare.allows(shared, cap: $0) } ?? true
            let caseArms = ruleRoutes[caseIndex]?.arms ?? arms
            guard let walk = rules.walk(row, arms: caseArms, expectedCosts: expectedCosts[caseIndex], hedging: mayHedge) else {
                trace.incompleteCases += 1
                continue
            }
            if shareCap != nil {
                shared = ((shared?.requests ?? 0) + 1, (shared?.hedged ?? 0) + (walk.hedge != nil ? 1 : 0))
            }
            trace.append(walk.repositioned(from: caseArms, into: traced), caseIndex: caseIndex, scorerCount: table.scorers.count)
        }
        guard !trace.cases.isEmpty else {
            throw .noCompleteCases(runID: table.runID, order: arms.map { table.arms[$0].id })
        }
        return trace
    }
}

/// One stored case through the router's own `RoutingWalk`: the simulator has no routing rule of its own, it
/// answers the walk's questions from the stored outcomes on a virtual clock (a call takes its stored `totalMs`,
/// or is cut at the walk's limit).
struct SimulatedRequest {
    var rules: RoutingWalk.Rules
    /// Quality floors as checks named `quality:SCORER` the walk falls back on; the scorer's index in the table.
    var qualityFloors: [(name: String, index: Int?, minimum: Double)]
    var table: RunOutcomeTable
    /// Context windows by model id, when the config is known (a context-window error then bounds the next models).
    var contextWindows: [String: Int]
    /// Progressive streams: a call's text reaches the app at its stored time to first token (`ArmOutcome.ttftMs`).
    var streams = false

    init(policy: ReplayPolicy, table: RunOutcomeTable, contextWindows: [String: Int]) {
        self.table = table
        self.contextWindows = contextWindows
        qualityFloors = policy.qualityFloors.compactMap {
            if case .quality(let scorer, let minimum) = $0 { ("quality:\(scorer)", table.scorers.firstIndex(of: scorer), minimum) } else { nil }
        }
        // The router's own resolver; the simulator adds only its quality floors. It has no cache, availability
        // probe or ledger, so those rules stay off.
        rules = policy.rules
        rules.checksAvailability = false
        rules.outputFallback.names.formUnion(qualityFloors.map(\.name))
    }

    /// One request down `arms`; nil when an arm the walk reached has no stored result. `expectedCosts` (model id →
    /// USD) is what the hedge's cost cap reads for a model; a model without one is judged by its stored cost.
    /// `hedging` false: the run's share cap is reached and the request is not hedged.
    func walk(_ row: [ArmOutcome?], arms: [Int], expectedCosts: [String: Double]? = nil, hedging: Bool = true) -> CaseWalk? {
        var rules = rules
        if !hedging { rules.hedge = nil }  // the share cap is reached: this request runs unhedged
        var walk = RoutingWalk(rules: rules, count: arms.count)
        var out = CaseWalk()
        var running: [SimulatedCall] = []
        var action = walk.start(at: .zero)
        while true {
            let event: RoutingWalk.Event
            switch action {
            case .inspect(let position):
                guard let outcome = row[arms[position]] else { return nil }
                let arm = table.arms[arms[position]]
                event = .inspected(
                    id: arm.modelID,
                    facts: .init(
                        tier: arm.tier, contextWindow: contextWindows[arm.modelID],
                        estimatedCostUSD: expectedCosts?[arm.modelID] ?? outcome.costUSD))
            case .call(let position, let until):
                event = finish(start(position, row: row, arms: arms, until: until, into: &out), into: &out)
            case .callHedged(let position, let until, let hedgeAt):
                let call = start(position, row: row, arms: arms, until: until, into: &out)
                // An answer by the hedge time, or (streaming) text by then, leaves the call to run alone.
                if call.endsAtMs <= hedgeAt.milliseconds || (call.textAtMs.map { $0 <= hedgeAt.milliseconds } ?? false) {
                    event = finish(call, into: &out)
                } else {
                    running.append(call)
                    out.latencyMs = hedgeAt.milliseconds
                    event = .hedgeDue
                }
            case .startHedge(let position, let until):
                let call = start(position, row: row, arms: arms, until: until, into: &out)
                out.hedge = (position, call.costUSD)
                running.append(call)
                event = nextEnd(of: &running, into: &out)
            case .awaitRace:
                event = nextEnd(of: &running, into: &out)
            case .cancel(let position):
                running.removeAll { $0.position == position }
                event = .performed
            case .coolDown, .reportAuthenticationFailure:
                event = .performed  // requests are independent here: a cooldown does not carry to the next case
            case .lookUpCache, .checkAvailability, .readSpend:
                preconditionFailure("the simulator's rules ask for no cache, availability or budget")
            case .finish(let outcome):
                out.records = walk.attempts
                if case .served(let position, _, _, let isFailing, _) = outcome {
                    if !isFailing { out.served = position }
                    out.delivered = (position, row[arms[position]]!)
                }
                return out
            }
            action = walk.next(event, at: .milliseconds(out.latencyMs))
        }
    }

    /// Starts one call at the clock's time: it is charged in full now, and ends at its stored `totalMs` or at the
    /// walk's limit, whichever comes first.
    private func start(
        _ position: Int, row: [ArmOutcome?], arms: [Int], until: Duration?, into out: inout CaseWalk
    ) -> SimulatedCall {
        let outcome = row[arms[position]]!
        out.attempts += 1
        if outcome.cacheHit { out.cacheHits += 1 }
        if let cost = outcome.costUSD { out.costUSD += cost } else { out.unpriced += 1 }
        let startMs = out.latencyMs
        // Streaming, text is out from its time to first token; one arriving at the cut's instant is read first.
        let textAtMs = streams ? outcome.ttftMs.map { startMs + $0 } : nil
        if let limitMs = until?.milliseconds, startMs + outcome.totalMs > limitMs {
            let shown = textAtMs.map { $0 <= limitMs } ?? false
            return SimulatedCall(
                position: position, endsAtMs: limitMs, event: .cut(deliveredText: shown), isCut: true, costUSD: outcome.costUSD ?? 0,
                textAtMs: shown ? textAtMs : nil)
        }
        let event: RoutingWalk.Event
        if outcome.failed {
            let model = table.arms[arms[position]].modelID
            let error = ResultError(
                kind: outcome.errorKind ?? GenerationError.Kind.serverError.rawValue, message: outcome.errorMessage ?? "")
            event = .failed(ReplayLanguageModel.generationError(error, model: model), deliveredText: false)
        } else {
            event = .answered(checks: checks(outcome), usage: nil, deliveredText: textAtMs != nil)
        }
        return SimulatedCall(
            position: position, endsAtMs: startMs + outcome.totalMs, event: event, isCut: false, costUSD: outcome.costUSD ?? 0,
            textAtMs: textAtMs)
    }

    /// The clock moves to the call's end.
    private func finish(_ call: SimulatedCall, into out: inout CaseWalk) -> RoutingWalk.Event {
        out.latencyMs = max(out.latencyMs, call.endsAtMs)
        if call.isCut { out.timedOut += 1 }
        return call.event
    }

    /// The earliest end, or (streaming) first text, among the calls of a race (ties: the call started first; a
    /// call's text before its own end).
    private func nextEnd(of running: inout [SimulatedCall], into out: inout CaseWalk) -> RoutingWalk.Event {
        guard let index = running.indices.min(by: { running[$0].nextMs < running[$1].nextMs }) else {
            preconditionFailure("the walk awaits a race with no call in flight")
        }
        if let textAt = running[index].textAtMs, !running[index].textPosted {
            running[index].textPosted = true
            out.latencyMs = max(out.latencyMs, textAt)
            return .textStarted(position: running[index].position)
        }
        let call = running.remove(at: index)
        return .raceEnded(position: call.position, finish(call, into: &out))
    }

    /// The stored failed checks, and the quality floors the outcome misses, as the walk reads output checks.
    private func checks(_ outcome: ArmOutcome) -> OutputCheckResult {
        var failed = outcome.failedChecks
        for floor in qualityFloors {
            guard let index = floor.index, let score = outcome.score(index), score >= floor.minimum else {
                failed.append(floor.name)
                continue
            }
        }
        let results = failed.map { ConstraintResult(name: $0, passed: false, observed: .null, limit: .null, message: "") }
        return OutputCheckResult(results: results, parsed: nil, schemaViolations: [])
    }
}

/// A call on the simulator's clock: when it ends and how.
struct SimulatedCall: Sendable {
    var position: Int
    var endsAtMs: Double
    var event: RoutingWalk.Event
    /// Ends at the walk's limit rather than with its stored outcome.
    var isCut: Bool
    var costUSD: Double
    /// Streaming: when the call's first text reaches the router; nil when it shows none before it ends.
    var textAtMs: Double? = nil
    /// The race has read the first text.
    var textPosted = false

    /// The instant of the call's next event in a race: its first text, then its end.
    var nextMs: Double { textPosted ? endsAtMs : (textAtMs ?? endsAtMs) }
}

/// One simulated request.
struct CaseWalk: Sendable {
    var served: Int?
    var delivered: (position: Int, outcome: ArmOutcome)?
    var attempts = 0
    var latencyMs = 0.0
    var costUSD = 0.0
    var timedOut = 0
    var unpriced = 0
    var cacheHits = 0
    /// The model raced by the request's hedge (position in the order) and that call's cost; nil: not hedged.
    var hedge: (position: Int, costUSD: Double)?
    /// The walk's own attempt records: the simulator does not write them, the router's walk does.
    var records: [RouteAttempt] = []
}
