/// A two-sample (unpaired) percentile bootstrap for the difference of a statistic between two independent samples,
/// first minus second: a latency quantile or a mean of field arms, whose installs differ so nothing pairs.
///
/// Each resample draws n₁ values from the first sample and n₂ from the second with replacement (Efron & Tibshirani,
/// *An Introduction to the Bootstrap* (1993), §8.3), seeded with ``SplitMix64`` so a report is reproducible. A
/// quantile of a resample is read from a histogram of drawn indices over the sorted sample, O(n) per resample
/// instead of a sort. Means above ``BootstrapConfiguration/maximumResampledCount`` values per sample use Welch's
/// normal approximation instead (see ``BootstrapConfiguration`` for why); quantiles are always resampled.
public struct TwoSampleBootstrap: Sendable, Hashable {
    /// What is compared.
    public enum Statistic: Sendable, Hashable {
        /// The arithmetic mean.
        case mean
        /// The type-7 quantile at q in [0, 1] (0.5 = median, 0.95 = p95).
        case quantile(Double)
    }

    /// Statistic of the first sample minus that of the second, on the observed data.
    public var difference: Double
    /// Lower bound of the interval.
    public var lower: Double
    /// Upper bound of the interval.
    public var upper: Double
    /// Two-sided p-value of "no difference", from inverting the percentile interval (floored at 2/(B + 1)).
    public var pValue: Double
    /// How the interval was computed.
    public var method: IntervalMethod

    /// The comparison, or nil when a sample has fewer than two finite values.
    public init?(_ first: [Double], _ second: [Double], statistic: Statistic, configuration: BootstrapConfiguration = .standard) {
        guard let a = Percentiles(first.filter(\.isFinite)), let b = Percentiles(second.filter(\.isFinite)),
            a.count >= 2, b.count >= 2
        else { return nil }
        let level = configuration.effectiveConfidenceLevel
        if case .mean = statistic, max(a.count, b.count) > configuration.maximumResampledCount {
            self.init(welch: SampleMoments(a.sorted), SampleMoments(b.sorted), level: level)
            return
        }
        self.init(resampling: a.sorted, b.sorted, statistic: statistic, configuration: configuration, level: level)
    }

    private init(welch a: SampleMoments, _ b: SampleMoments, level: Double) {
        let variance = (a.variance ?? 0) / Double(a.count) + (b.variance ?? 0) / Double(b.count)
        let se = variance.squareRoot()
        let z = NormalDistribution.quantile(1 - (1 - level) / 2)
        difference = a.mean - b.mean
        lower = difference - z * se
        upper = difference + z * se
        pValue = se > 0 ? NormalDistribution.twoSidedPValue(z: difference / se) : (difference == 0 ? 1 : 0)
        method = .normalApproximation
    }

    private init(
        resampling a: [Double], _ b: [Double], statistic: Statistic, configuration: BootstrapConfiguration,
        level: Double
    ) {
        let resamples = configuration.effectiveResamples
        var rng = SplitMix64(seed: configuration.seed)
        var scratchA = [Int32](repeating: 0, count: a.count)
        var scratchB = [Int32](repeating: 0, count: b.count)
        var differences = [Double](repeating: 0, count: resamples)
        var atOrBelowZero = 0
        var atOrAboveZero = 0
        for r in 0..<resamples {
            let d =
                Self.resampled(a, statistic, &rng, &scratchA) - Self.resampled(b, statistic, &rng, &scratchB)
            differences[r] = d
            if d <= 0 { atOrBelowZero += 1 }
            if d >= 0 { atOrAboveZero += 1 }
        }
        differences.sort()
        let alpha = 1 - level
        difference = Self.value(of: statistic, sorted: a) - Self.value(of: statistic, sorted: b)
        lower = Percentiles.quantile(ofSorted: differences, alpha / 2)
        upper = Percentiles.quantile(ofSorted: differences, 1 - alpha / 2)
        let tail = Double(min(atOrBelowZero, atOrAboveZero) + 1) / Double(resamples + 1)
        pValue = min(1, 2 * tail)
        method = .percentileBootstrap(resamples: resamples, seed: configuration.seed)
    }

    private static func value(of statistic: Statistic, sorted: [Double]) -> Double {
        switch statistic {
        case .mean: SampleMoments(sorted).mean
        case .quantile(let q): Percentiles.quantile(ofSorted: sorted, q)
        }
    }

    /// The statistic of one resample of `sorted`; `counts` is scratch space of the sample's size.
    private static func resampled(
        _ sorted: [Double], _ statistic: Statistic, _ rng: inout SplitMix64, _ counts: inout [Int32]
    ) -> Double {
        let n = sorted.count
        switch statistic {
        case .mean:
            var sum = 0.0
            for _ in 0..<n { sum += sorted[rng.nextIndex(below: n)] }
            return sum / Double(n)
        case .quantile(let q):
            for i in 0..<n { counts[i] = 0 }
            for _ in 0..<n { counts[rng.nextIndex(below: n)] += 1 }
            return quantileOfCounts(sorted, counts, q)
        }
    }

    /// The type-7 quantile of the multiset holding `counts[i]` copies of `sorted[i]` (n values in all).
    private static func quantileOfCounts(_ sorted: [Double], _ counts: [Int32], _ q: Double) -> Double {
        let n = sorted.count
        let h = Double(n - 1) * min(1, max(0, q))
        let low = Int(h.rounded(.down))
        let fraction = h - Double(low)
        var seen = 0
        var lowValue = sorted[n - 1]
        var index = 0
        while index < n {
            seen += Int(counts[index])
            if seen > low {
                lowValue = sorted[index]
                break
            }
            index += 1
        }
        guard fraction > 0, low + 1 < n else { return lowValue }
        var highValue = lowValue
        if seen <= low + 1 {
            index += 1
            while index < n, counts[index] == 0 { index += 1 }
            if index < n { highValue = sorted[index] }
        }
        return lowValue + fraction * (highValue - lowValue)
    }
}
