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
        let (first, second) = (PooledEvents(a), PooledEvents(b))
        difference = Percentiles.quantile(ofSorted: first.values, q) - Percentiles.quantile(ofSorted: second.values, q)
        var rng = SplitMix64(seed: configuration.seed)
        var draws = [Double](repeating: 0, count: resamples)
        var atOrBelow = 0
        var atOrAbove = 0
        var counts: [Int32] = []
        for r in 0..<resamples {
            let x = first.resampledQuantile(q, &rng, &counts)
            let y = second.resampledQuantile(q, &rng, &counts)
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
}

/// One arm's events sorted once, each with the install it came from: a resample is then a count of draws per
/// install, and its quantile a walk up the sorted events weighting each by its install's count (O(events), no
/// copy and no sort per resample; sorting every resample was most of a field report's time). The draws are the
/// same as drawing installs and pooling their events, so the figures are too.
private struct PooledEvents {
    /// Every event's value, ascending.
    let values: [Double]
    let owners: [Int32]
    let sizes: [Int]

    init(_ installs: [[Double]]) {
        var pairs: [(value: Double, owner: Int32)] = []
        pairs.reserveCapacity(installs.reduce(0) { $0 + $1.count })
        for (owner, events) in installs.enumerated() {
            for value in events { pairs.append((value, Int32(owner))) }
        }
        pairs.sort { $0.value < $1.value }
        values = pairs.map(\.value)
        owners = pairs.map(\.owner)
        sizes = installs.map(\.count)
    }

    /// The type-7 quantile of one resample of installs drawn with replacement.
    func resampledQuantile(_ q: Double, _ rng: inout SplitMix64, _ counts: inout [Int32]) -> Double {
        if counts.count == sizes.count {
            counts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            counts = [Int32](repeating: 0, count: sizes.count)
        }
        var total = 0
        for _ in sizes.indices {
            let install = rng.nextIndex(below: sizes.count)
            counts[install] += 1
            total += sizes[install]
        }
        let h = Double(total - 1) * min(1, max(0, q))
        let lowRank = Int(h.rounded(.down))
        let fraction = h - Double(lowRank)
        return counts.withUnsafeBufferPointer { counts in
            var below = 0
            var low: Double?
            for index in values.indices {
                let weight = Int(counts[Int(owners[index])])
                guard weight > 0 else { continue }
                below += weight
                if low == nil, below > lowRank {
                    low = values[index]
                    // Both order statistics fall on this value, or there is no next one to interpolate towards.
                    if below > lowRank + 1 || fraction == 0 || lowRank + 1 >= total { return values[index] }
                } else if let low {
                    return low + fraction * (values[index] - low)
                }
            }
            return low ?? .nan
        }
    }
}
