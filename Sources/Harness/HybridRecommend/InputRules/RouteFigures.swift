import Foundation
import HybridReport

/// What a route gives over the cases, each figure with its 95 % interval over cases (the unit): adherence (Wilson
/// on the cases' pass shares), cost per request and the share sent past the device (bootstrap of the mean), p50 and
/// p95 of the cases' latency (percentile bootstrap).
public struct RouteFigures: Sendable {
    /// "current route", "all-device", "learned rule (cross-fitted)", …
    public var name: String
    public var adherence: ProportionEstimate
    public var costPerRequest: MeanEstimate
    public var p50LatencyMs: MeanEstimate
    public var p95LatencyMs: MeanEstimate
    public var cloudShare: MeanEstimate

    init(name: String, _ outcomes: CaseOutcomes, configuration: BootstrapConfiguration = .standard) {
        self.name = name
        let passes = Int(outcomes.adherence.reduce(0, +).rounded())
        adherence = ProportionEstimate(successes: passes, trials: outcomes.adherence.count, caseValues: outcomes.adherence)
        costPerRequest = MeanEstimate(outcomes.cost, configuration: configuration)
        cloudShare = MeanEstimate(outcomes.cloud, configuration: configuration)
        p50LatencyMs = Self.quantile(outcomes.latencyMs, 0.5, seed: configuration.seed)
        p95LatencyMs = Self.quantile(outcomes.latencyMs, 0.95, seed: configuration.seed)
    }

    /// The `q` quantile of `values` with a percentile bootstrap interval over them (1,000 resamples, seeded).
    static func quantile(_ values: [Double], _ q: Double, seed: UInt64) -> MeanEstimate {
        let point = Percentiles.quantile(ofSorted: values.sorted(), q)
        guard values.count > 1 else { return MeanEstimate(count: values.count, mean: point) }
        var rng = SplitMix64(seed: seed ^ 0x9E37_79B9)
        var estimates: [Double] = []
        var sample = values
        for _ in 0..<1_000 {
            for i in sample.indices { sample[i] = values[Int(rng.next() % UInt64(values.count))] }
            estimates.append(Percentiles.quantile(ofSorted: sample.sorted(), q))
        }
        estimates.sort()
        return MeanEstimate(
            count: values.count, mean: point, lower: Percentiles.quantile(ofSorted: estimates, 0.025),
            upper: Percentiles.quantile(ofSorted: estimates, 0.975), method: .percentileBootstrap(resamples: 1_000, seed: seed))
    }

    /// Each interval widened to cover `other`'s too (the point estimates stay this route's), and the name says so.
    mutating func span(_ other: RouteFigures) {
        name += ", intervals spanning the rule fitted on all cases"
        adherence.lower = min(adherence.lower, other.adherence.lower)
        adherence.upper = max(adherence.upper, other.adherence.upper)
        for (mine, theirs) in [(\RouteFigures.costPerRequest, other.costPerRequest), (\.p50LatencyMs, other.p50LatencyMs),
                               (\.p95LatencyMs, other.p95LatencyMs), (\.cloudShare, other.cloudShare)] {
            self[keyPath: mine].lower = Self.extreme(self[keyPath: mine].lower, theirs.lower, by: min)
            self[keyPath: mine].upper = Self.extreme(self[keyPath: mine].upper, theirs.upper, by: max)
        }
    }

    private static func extreme(_ a: Double?, _ b: Double?, by pick: (Double, Double) -> Double) -> Double? {
        guard let a, let b else { return a ?? b }
        return pick(a, b)
    }

    /// One line: adherence, cost per request, latency and the share sent past the device, with intervals.
    public var line: String {
        let dollars = costPerRequest.formatted { String(format: "$%.5f", $0) }
        let share = cloudShare.formatted { String(format: "%.0f%%", $0 * 100) }
        let p50 = p50LatencyMs.formatted { String(format: "%.0f ms", $0) }
        let p95 = p95LatencyMs.formatted { String(format: "%.0f ms", $0) }
        return "\(name): adherence \(adherence); cost/request \(dollars); p50 \(p50); p95 \(p95); to the cloud \(share)"
    }
}
