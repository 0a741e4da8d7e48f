public import HybridStore

/// One-sided tests of a group of field events against a policy's floor, on installs, each install weighing at most
/// what it weighs in the report (``FieldMetric/weightCap(_:)``): what `recommend --by` needs
/// before it overrides a segment's route (a point estimate over the floor says little with few installs).
public enum FieldFloorTest {
    /// A figure of the group, its install-level standard error and the one-sided p-value of "the floor is missed".
    public struct Outcome: Sendable, Hashable {
        /// The group's value: the share of answered events slower than the limit, or the cost per 1,000 requests.
        public var value: Double
        /// Its delta-method standard error over installs.
        public var standardError: Double
        /// Installs behind it.
        public var installs: Int
        /// Events behind it (answered events for latency), for the binomial floor of a share's variance.
        public var events: Double = 0
        /// One-sided p of H₀ "the floor is met" (small: the data show it is missed).
        public var pValue: Double

        /// An outcome; see the properties.
        public init(value: Double, standardError: Double, installs: Int, pValue: Double) {
            self.value = value
            self.standardError = standardError
            self.installs = installs
            self.pValue = pValue
        }
    }

    /// p95 latency above `limitMs`, tested as "more than 5 % of answered events are slower than the limit"
    /// (the two say the same); nil with fewer than two installs or no answered event.
    public static func latency(above limitMs: Double, events: [FieldEventRecord]) -> Outcome? {
        var slow: [String: Double] = [:]
        var answered: [String: Double] = [:]
        for event in events where event.isLatencyEligible {
            answered[event.installID, default: 0] += 1
            if event.latencyMs > limitMs { slow[event.installID, default: 0] += 1 }
        }
        let ids = answered.keys.sorted()
        let counts = ids.map { answered[$0] ?? 0 }
        let cap = FieldMetric.weightCap(counts)
        let factors = counts.map { FieldMetric.capFactor($0, cap: cap) }
        return test(
            RatioEstimate(
                numerators: zip(ids, factors).map { (slow[$0.0] ?? 0) * $0.1 },
                denominators: zip(counts, factors).map { $0 * $1 }),
            against: 0.05)
    }

    /// Cost per 1,000 requests above `limit` dollars; nil with fewer than two installs.
    public static func cost(above limit: Double, events: [FieldEventRecord]) -> Outcome? {
        let installs = InstallTotals.byInstall(events, keepLatencies: false)
        let group = installs.keys.sorted().compactMap { installs[$0] }
        let metric = FieldMetric.costPer1000
        return test(metric.estimate(group, cap: metric.weightCap(group)), against: limit)
    }

    private static func test(_ estimate: RatioEstimate?, against floor: Double) -> Outcome? {
        guard let estimate else { return nil }
        let se = estimate.variance.squareRoot()
        let p = se > 0
            ? 1 - NormalDistribution.cdf((estimate.ratio - floor) / se) : (estimate.ratio > floor ? 0 : 1)
        var outcome = Outcome(value: estimate.ratio, standardError: se, installs: estimate.units, pValue: p)
        outcome.events = estimate.denominatorTotal
        return outcome
    }
}
