/// How bootstrap intervals are computed: resample count, seed, confidence level, and the sample size above which
/// the normal approximation replaces resampling.
///
/// Why the threshold exists: a percentile bootstrap of a mean costs O(n × B) random draws. At n = 2,000 and
/// B = 10,000 that is 2 × 10⁷ draws per comparison, tens of milliseconds; at the 200,000 cases per arm of a
/// 1,000,000-row store it would be 2 × 10⁹ per comparison, far beyond the report's time budget. Above the threshold
/// the sampling distribution of a mean is normal to within Berry–Esseen error O(1/√n), and the percentile
/// bootstrap itself converges to mean ± z·SE, so the interval is computed as mean ± z·SD/√n in O(n) instead.
/// The result's ``IntervalMethod`` says which was used, so a report can say so.
public struct BootstrapConfiguration: Sendable, Hashable {
    /// The fixed default seed, the bytes of "HybridAI", so two runs of a report print identical intervals.
    public static let defaultSeed: UInt64 = 0x4879_6272_6964_4149
    /// 10,000 resamples, the default seed, 95 %, normal approximation above n = 2,000.
    public static let standard = BootstrapConfiguration()

    /// Number of bootstrap resamples; values below 100 are raised to 100 so percentiles stay meaningful.
    public var resamples: Int
    /// Seed of the ``SplitMix64`` stream. Every interval restarts from it, so results do not depend on the order
    /// in which a report computes them.
    public var seed: UInt64
    /// Two-sided confidence level in (0, 1); out-of-range values fall back to 0.95.
    public var confidenceLevel: Double
    /// Largest n still resampled; above it the normal approximation is used. Set to `Int.max` to always resample.
    public var maximumResampledCount: Int

    /// A configuration; see the properties for what each value means.
    public init(
        resamples: Int = 10_000,
        seed: UInt64 = BootstrapConfiguration.defaultSeed,
        confidenceLevel: Double = 0.95,
        maximumResampledCount: Int = 2_000
    ) {
        self.resamples = resamples
        self.seed = seed
        self.confidenceLevel = confidenceLevel
        self.maximumResampledCount = maximumResampledCount
    }

    var effectiveResamples: Int { max(100, resamples) }

    var effectiveConfidenceLevel: Double {
        confidenceLevel > 0 && confidenceLevel < 1 ? confidenceLevel : 0.95
    }
}
