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
/// cut and serves nothing. Cost is charged in full for every attempt, timed out or not (a conservative bound: a
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

    /// Walks every case through `arms` under `policy`'s conditions.
    func trace(arms: [Int], policy: ReplayPolicy) throws(RecommendError) -> RouteTrace {
        let rules = SimulatedRequest(policy: policy, table: table, contextWindows: contextWindows)
        var trace = RouteTrace(arms: arms, scorerCount: table.scorers.count)
        for (caseIndex, row) in table.outcomes.enumerated() {
            guard let walk = rules.walk(row, arms: arms) else {
                trace.incompleteCases += 1
                continue
            }
            trace.append(walk, caseIndex: caseIndex, scorerCount: table.scorers.count)
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

    init(policy: ReplayPolicy, table: RunOutcomeTable, contextWindows: [String: Int]) {
        self.table = table
        self.contextWindows = contextWindows
        qualityFloors = policy.fallback.compactMap {
            if case .quality(let scorer, let minimum) = $0 { ("quality:\(scorer)", table.scorers.firstIndex(of: scorer), minimum) } else { nil }
        }
        rules = RoutingWalk.Rules()
        for kind in GenerationError.Kind.allCases {
            rules.actions[kind] = policy.stopOn.contains(kind.rawValue) ? .stop : .tryNext
        }
        rules.outputFallback = policy.outputSelection
        rules.outputFallback.names.formUnion(qualityFloors.map(\.name))
        rules.attemptTimeout = policy.timeoutMs.map { .milliseconds($0) }
        rules.deadline = policy.deadlineMs.map { .milliseconds($0) }
        rules.whenChecksFail = policy.whenChecksFail
    }

    /// One request down `arms`; nil when an arm the walk reached has no stored result.
    func walk(_ row: [ArmOutcome?], arms: [Int]) -> CaseWalk? {
        var walk = RoutingWalk(rules: rules, count: arms.count)
        var out = CaseWalk()
        var action = walk.start(at: .zero)
        while true {
            let event: RoutingWalk.Event
            switch action {
            case .inspect(let position):
                guard row[arms[position]] != nil else { return nil }
                let arm = table.arms[arms[position]]
                event = .inspected(id: arm.modelID, facts: .init(tier: arm.tier, contextWindow: contextWindows[arm.modelID]))
            case .call(let position, let until), .callHedged(let position, let until, _):
                event = call(
                    row[arms[position]]!, model: table.arms[arms[position]].modelID, until: until.map(\.milliseconds), into: &out)
            case .coolDown, .reportAuthenticationFailure:
                event = .performed  // requests are independent here: a cooldown does not carry to the next case
            case .startHedge, .awaitRace, .cancel:
                preconditionFailure("a race needs .hedgeDue, which this shell does not report")
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

    /// Charges one call and says how it ended.
    private func call(_ outcome: ArmOutcome, model: String, until limitMs: Double?, into out: inout CaseWalk) -> RoutingWalk.Event {
        out.attempts += 1
        if outcome.cacheHit { out.cacheHits += 1 }
        if let cost = outcome.costUSD { out.costUSD += cost } else { out.unpriced += 1 }
        if let limitMs, out.latencyMs + outcome.totalMs > limitMs {
            out.latencyMs = limitMs
            out.timedOut += 1
            return .cut(deliveredText: false)
        }
        out.latencyMs += outcome.totalMs
        if outcome.failed {
            let error = ResultError(
                kind: outcome.errorKind ?? GenerationError.Kind.serverError.rawValue, message: outcome.errorMessage ?? "")
            return .failed(ReplayLanguageModel.generationError(error, model: model), deliveredText: false)
        }
        return .answered(checks: checks(outcome), usage: nil, deliveredText: false)
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
    /// The walk's own attempt records: the simulator does not write them, the router's walk does.
    var records: [RouteAttempt] = []
}
