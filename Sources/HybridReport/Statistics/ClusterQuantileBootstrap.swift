/// The difference of a latency quantile (p50, p95) between two arms with an install-level bootstrap: each resample
/// draws installs with replacement and keeps all of a drawn install's events together, because the install, not
/// the event, is what the experiment randomised (a quantile has no delta-method variance to lean on).
///
/// Resamples are capped so that resamples × events stays under `maximumWork` (at least 100 resamples): these
/// intervals are descriptive (no verdict rests on them), and a large field run should not wait on them.
public struct ClusterQuantileBootstrap: Sendable, Hashable {
    /// Quantile of the first arm's events minus the second's.
    public let difference: Double
    /// Lower bound of the percentile interval.
    public let lower: Double
    /// Upper bound of the percentile interval.
    public let upper: Double
    /// Two-sided p-value from inverting the percentile interval (floored at 2/(B + 1)).
    public let pValue: Double
    /// Resamples drawn.
    public let resamples: Int

    /// The comparison, or nil when an arm has fewer than two installs with values.
    public init?(
        _ first: [[Double]], _ second: [[Double]], quantile q: Double, configuration: BootstrapConfiguration,
        maximumWork: Int = 20_000_000
    ) {
        let a = first.filter { !$0.isEmpty }
        let b = second.filter { !$0.isEmpty }
        guard a.count >= 2, b.count >= 2 else { return nil }
        let events = a.reduce(0) { $0 + $1.count } + b.reduce(0) { $0 + $1.count }
        let resamples = max(100, min(configuration.effectiveResamples, maximumWork / max(1, events)))
        difference = Self.quantile(a.flatMap { $0 }, q) - Self.quantile(b.flatMap { $0 }, q)
        var rng = SplitMix64(seed: configuration.seed)
        var draws = [Double](repeating: 0, count: resamples)
        var atOrBelow = 0
        var atOrAbove = 0
        var scratch: [Double] = []
        for r in 0..<resamples {
            let x = Self.resampledQuantile(a, q, &rng, &scratch)
            let y = Self.resampledQuantile(b, q, &rng, &scratch)
            draws[r] = x - y
            if x - y <= 0 { atOrBelow += 1 }
            if x - y >= 0 { atOrAbove += 1 }
        }
        draws.sort()
        let alpha = 1 - configuration.effectiveConfidenceLevel
        lower = Percentiles.quantile(ofSorted: draws, alpha / 2)
        upper = Percentiles.quantile(ofSorted: draws, 1 - alpha / 2)
        pValue = min(1, 2 * Double(min(atOrBelow, atOrAbove) + 1) / Double(resamples + 1))
        self.resamples = resamples
    }

    private static func resampledQuantile(
        _ installs: [[Double]], _ q: Double, _ rng: inout SplitMix64, _ scratch: inout [Double]
    ) -> Double {
        scratch.removeAll(keepingCapacity: true)
        for _ in installs.indices {
            scratch.append(contentsOf: installs[rng.nextIndex(below: installs.count)])
        }
        scratch.sort()
        return Percentiles.quantile(ofSorted: scratch, q)
    }

    private static func quantile(_ values: [Double], _ q: Double) -> Double {
        Percentiles.quantile(ofSorted: values.sorted(), q)
    }
}
