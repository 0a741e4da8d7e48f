/// The mean of one sample with a bootstrap confidence interval (quality per scorer: mean [95 % CI]).
///
/// Deterministic: the resampling stream is ``SplitMix64`` seeded from the configuration. Above
/// ``BootstrapConfiguration/maximumResampledCount`` values the normal approximation is used instead; see
/// ``BootstrapConfiguration`` for why and ``method`` for which one produced this interval.
public struct BootstrapMeanInterval: Sendable, Hashable {
    /// Number of values.
    public let count: Int
    /// The sample mean.
    public let mean: Double
    /// The sample standard deviation (divisor n − 1).
    public let standardDeviation: Double
    /// Lower bound of the interval.
    public let lower: Double
    /// Upper bound of the interval.
    public let upper: Double
    /// Standard error of the mean: the SD of the resampled means, or SD/√n under the normal approximation.
    public let standardError: Double
    /// The two-sided confidence level of [lower, upper], e.g. 0.95.
    public let confidenceLevel: Double
    /// How the interval was computed.
    public let method: IntervalMethod

    /// The interval for the mean of `values`, or nil with fewer than two values or any value that is NaN or
    /// infinite (drop cases a scorer could not score before calling; show a bare mean when n = 1).
    public init?(_ values: [Double], configuration: BootstrapConfiguration = .standard) {
        guard let result = MeanResampler.run(values, configuration: configuration) else { return nil }
        count = values.count
        mean = result.mean
        standardDeviation = result.standardDeviation
        lower = result.lower
        upper = result.upper
        standardError = result.standardError
        confidenceLevel = result.confidenceLevel
        method = result.method
    }
}
