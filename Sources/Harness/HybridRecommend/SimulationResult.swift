import HybridCore
import HybridReport

/// What a routing policy would have done over a stored run: quality, adherence, latency, cost and who served.
///
/// Means carry bootstrap intervals and shares Wilson intervals, as in `hybrid report`.
public struct SimulationResult: Sendable {
    /// Id of the stored run replayed.
    public var runID: String
    /// The feature of the run.
    public var feature: String
    /// The prompt variant used for bare model ids.
    public var variant: String
    /// The policy that was replayed.
    public var policy: ReplayPolicy
    /// The arms of the order, resolved against the run.
    public var arms: [ArmDescriptor]
    /// Simulated requests: (case, repeat) pairs with a result on every arm the walk reached.
    public var count: Int
    /// Cases left out because an arm the walk reached has no result for them (an unfinished run).
    public var incompleteCases: Int
    /// Mean score per scorer of what each request got (0 when it got nothing).
    public var quality: [QualityEstimate]
    /// Requests whose output passed every constraint.
    public var adherence: ProportionEstimate
    /// Summed latency of every attempt per request.
    public var latency: LatencySummary
    /// Dollars per 1,000 requests, every attempt charged.
    public var costPer1k: MeanEstimate
    /// Share served by each model of the order (first arm that passed), in order.
    public var servedByModel: [ServedShare]
    /// Share served by each tier, least private last.
    public var servedByTier: [ServedShare]
    /// Requests on which no arm passed the conditions.
    public var noArmPassed: ProportionEstimate
    /// Mean number of arms called per request.
    public var meanAttempts: Double
    /// Attempts cut at the timeout threshold.
    public var timedOutAttempts: Int
    /// Attempts without a price (counted as free).
    public var unpricedAttempts: Int
    /// Attempts whose stored result came from the response cache (their latency is the original call's).
    public var cacheHitAttempts: Int
    /// What the policy's hedge did; nil when the policy does not hedge.
    public var hedge: HedgeFigures?

    init(
        table: RunOutcomeTable, policy: ReplayPolicy, variant: String, trace: RouteTrace,
        configuration: BootstrapConfiguration, reducer: RepeatReducer = .mean
    ) {
        let units = TraceCases(trace, table: table, reducer: reducer)
        runID = table.runID
        feature = table.feature
        self.variant = variant
        self.policy = policy
        arms = trace.arms.map { table.arms[$0] }
        count = trace.count
        incompleteCases = trace.incompleteCases
        quality = table.scorers.indices.compactMap { index in
            let values = units.means(trace.quality[index])
            guard !values.isEmpty else { return nil }
            return QualityEstimate(scorer: table.scorers[index], estimate: MeanEstimate(values, configuration: configuration))
        }
        adherence = units.proportion(trace.adherent)
        // Percentiles describe requests; the means' intervals are on cases.
        let percentiles = Percentiles(trace.latencyMs)
        latency = LatencySummary(
            p50: percentiles?.p50 ?? .nan, p95: percentiles?.p95 ?? .nan,
            mean: MeanEstimate(units.means(trace.latencyMs), configuration: configuration), p99: percentiles?.p99 ?? .nan)
        costPer1k = MeanEstimate(units.means(trace.costUSD), scale: 1000, configuration: configuration)

        let tiers = Set(trace.served.compactMap { $0.map { table.arms[trace.arms[$0]].tier } })
        var seen: Set<String> = []
        servedByModel = arms.compactMap { arm in
            guard seen.insert(arm.modelID).inserted else { return nil }
            return ServedShare(label: arm.modelID, share: units.proportion(trace.served.map { served in
                served.map { table.arms[trace.arms[$0]].modelID == arm.modelID } ?? false
            }, reducer: .mean))
        }
        servedByTier = tiers.sorted().map { tier in
            ServedShare(label: tier.rawValue, share: units.proportion(trace.served.map { served in
                served.map { table.arms[trace.arms[$0]].tier == tier } ?? false
            }, reducer: .mean))
        }
        noArmPassed = units.proportion(trace.served.map { $0 == nil }, reducer: .mean)
        meanAttempts = Double(trace.attempts.reduce(0, +)) / Double(max(1, trace.count))
        timedOutAttempts = trace.timedOutAttempts
        unpricedAttempts = trace.unpricedAttempts
        cacheHitAttempts = trace.cacheHitAttempts
        hedge = policy.hedge.map { HedgeFigures(afterMs: $0.afterMs, trace: trace, table: table, units: units) }
    }

    /// The quality estimate of `scorer`, when the run has it.
    public func quality(_ scorer: String) -> QualityEstimate? {
        quality.first { $0.scorer == scorer }
    }

    /// The share served by model `id` (0 when it served none).
    public func share(servedBy id: String) -> ProportionEstimate? {
        servedByModel.first { $0.label == id }?.share
    }
}
