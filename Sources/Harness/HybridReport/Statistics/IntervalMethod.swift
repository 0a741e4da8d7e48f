/// How a mean's confidence interval was obtained, so a report can state its method next to the numbers.
public enum IntervalMethod: Sendable, Hashable {
    /// Percentile bootstrap: `resamples` resamples of the n values with replacement from a ``SplitMix64`` seeded
    /// with `seed`; bounds are the type-7 quantiles of the resampled means at α/2 and 1 − α/2.
    case percentileBootstrap(resamples: Int, seed: UInt64)
    /// Mean ± z·SD/√n, used when n is above ``BootstrapConfiguration/maximumResampledCount``.
    case normalApproximation
}
