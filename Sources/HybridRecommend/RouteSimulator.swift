import HybridCore
public import HybridReport
public import HybridStore

/// Replays routing policies over the results a run already stored (every case ran on every arm): no model calls.
///
/// For each (case, repeat) it walks the policy's order and takes the first arm whose stored result passes the
/// fallback conditions, charging the latency and cost of every attempt made on the way. Latency is the stored
/// `totalMs` of each attempt (retry backoff excluded, as in reports); an attempt over a `timeout` threshold is
/// charged the threshold and serves nothing. Cost is charged in full for every attempt, timed out or not
/// (a conservative bound: a cut request still pays for its prompt). When no arm passes, the request counts in
/// "no arm passed" and the user gets the last output that arrived in time, if any (quality 0 when none).
public struct RouteSimulator: Sendable {
    /// The stored run's outcomes every policy is replayed over.
    public let table: RunOutcomeTable
    /// Resamples, seed and confidence level of every interval.
    public var bootstrap: BootstrapConfiguration

    /// Creates a simulator over `table`; the table is not read from the store again.
    public init(table: RunOutcomeTable, bootstrap: BootstrapConfiguration = .standard) {
        self.table = table
        self.bootstrap = bootstrap
    }

    /// Reads `run` from the store in one pass; see `RunOutcomeTable.load`.
    public static func load(
        from store: any ResultStore, run: String, feature: String? = nil, bootstrap: BootstrapConfiguration = .standard
    ) async throws(RecommendError) -> RouteSimulator {
        RouteSimulator(table: try await RunOutcomeTable.load(from: store, run: run, feature: feature), bootstrap: bootstrap)
    }

    /// The figures of `policy` over the run, with intervals.
    public func simulate(_ policy: RoutePolicy) throws(RecommendError) -> SimulationResult {
        let (variant, arms) = try resolve(policy)
        let trace = try self.trace(arms: arms, policy: policy)
        return SimulationResult(table: table, policy: policy, variant: variant, trace: trace, configuration: bootstrap)
    }

    /// The variant and arm indices `policy` names; throws when the run lacks an arm.
    func resolve(_ policy: RoutePolicy) throws(RecommendError) -> (variant: String, arms: [Int]) {
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
    func trace(arms: [Int], policy: RoutePolicy) throws(RecommendError) -> RouteTrace {
        let rules = WalkRules(policy: policy, scorers: table.scorers)
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

/// The router's rules as the simulator applies them to one case's stored outcomes.
struct WalkRules: Sendable {
    var timeoutMs: Double?
    var deadlineMs: Double?
    var stopOn: Set<String>
    var checks: OutputCheckSelection
    var qualityFloors: [(index: Int?, minimum: Double)]
    var returnBest: Bool

    init(policy: RoutePolicy, scorers: [String]) {
        timeoutMs = policy.timeoutMs
        deadlineMs = policy.deadlineMs
        stopOn = policy.stopOn
        checks = policy.outputSelection
        qualityFloors = policy.fallback.compactMap {
            if case .quality(let scorer, let minimum) = $0 { (scorers.firstIndex(of: scorer), minimum) } else { nil }
        }
        returnBest = policy.whenChecksFail == .returnBest
    }

    /// One request down the order; nil when an arm it reached has no stored result.
    func walk(_ row: [ArmOutcome?], arms: [Int]) -> CaseWalk? {
        var walk = CaseWalk()
        var best: (position: Int, outcome: ArmOutcome, failed: Int)?
        for (position, arm) in arms.enumerated() {
            if let deadlineMs, walk.latencyMs >= deadlineMs { return walk }  // the router throws deadlineExceeded
            guard let outcome = row[arm] else { return nil }
            walk.attempts += 1
            if outcome.cacheHit { walk.cacheHits += 1 }
            if let c = outcome.costUSD { walk.costUSD += c } else { walk.unpriced += 1 }
            let remaining = deadlineMs.map { $0 - walk.latencyMs }
            let limit = [timeoutMs, remaining].compactMap { $0 }.min()
            if let limit, outcome.totalMs > limit {
                walk.latencyMs += limit
                walk.timedOut += 1
                // Cut by the overall deadline (it comes no later than the timeout): the request is out of time.
                if let remaining, remaining <= (timeoutMs ?? .infinity) { return walk }
                continue
            }
            walk.latencyMs += outcome.totalMs
            if outcome.failed {
                if let kind = outcome.errorKind, stopOn.contains(kind) { return walk }
                continue
            }
            if outcome.failedChecks.contains(where: checks.selects) {
                if outcome.hasOutput, best.map({ outcome.failedChecks.count < $0.failed }) ?? true {
                    best = (position, outcome, outcome.failedChecks.count)
                }
                continue
            }
            if !passesQuality(outcome) {
                // A quality floor is not a router rule: what the user gets is the last answer in time.
                if outcome.hasOutput { best = (position, outcome, outcome.failedChecks.count) }
                continue
            }
            walk.served = position
            walk.delivered = (position, outcome)
            return walk
        }
        if returnBest || !qualityFloors.isEmpty, let best { walk.delivered = (best.position, best.outcome) }
        return walk
    }

    private func passesQuality(_ outcome: ArmOutcome) -> Bool {
        qualityFloors.allSatisfy { floor in
            guard let index = floor.index, let score = outcome.score(index) else { return false }
            return score >= floor.minimum
        }
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
}
