/// The mean paired difference between two arms on the same cases, with a bootstrap confidence interval and the
/// p-value of "no difference" (scores, latency, cost).
///
/// Resamples the n per-case differences first[i] − second[i], which keeps each case's pairing and so removes
/// between-case variance from the comparison. The p-value inverts the interval: the smallest α whose (1 − α)
/// percentile interval excludes 0, floored at 2/(B + 1); under the normal approximation it is the two-sided z-test
/// of mean/SE. Feed the p-values of all comparisons in a report to ``HolmCorrection`` before judging them.
public struct PairedBootstrap: Sendable, Hashable {
    /// Number of pairs.
    public let count: Int
    /// Mean of first[i] − second[i]: positive means the first arm's values are higher.
    public let meanDifference: Double
    /// Standard deviation of the differences (divisor n − 1); the input of the paired minimum detectable effect.
    public let standardDeviationOfDifferences: Double
    /// Lower bound of the interval for the mean difference.
    public let lower: Double
    /// Upper bound of the interval for the mean difference.
    public let upper: Double
    /// Standard error of the mean difference.
    public let standardError: Double
    /// Unadjusted two-sided p-value of "mean difference = 0".
    public let pValue: Double
    /// The two-sided confidence level of [lower, upper], e.g. 0.95.
    public let confidenceLevel: Double
    /// How the interval was computed.
    public let method: IntervalMethod

    /// Compares `first` and `second` pair by pair (index i of both is the same case), or returns nil when the
    /// arrays differ in length, hold fewer than two pairs, or contain NaN or infinite values (drop a case from
    /// both arms when either lacks a value, before calling).
    public init?(first: [Double], second: [Double], configuration: BootstrapConfiguration = .standard) {
        guard first.count == second.count else { return nil }
        var differences = [Double]()
        differences.reserveCapacity(first.count)
        for (x, y) in zip(first, second) {
            differences.append(x - y)
        }
        self.init(differences: differences, configuration: configuration)
    }

    /// The difference in pass rates p_first − p_second of paired pass/fail outcomes, as 1/0 values; use it for the
    /// interval next to ``McNemarExactTest``'s p-value (whose discordant pairs are the ±1 differences here).
    public init?(firstPasses: [Bool], secondPasses: [Bool], configuration: BootstrapConfiguration = .standard) {
        guard firstPasses.count == secondPasses.count else { return nil }
        var differences = [Double]()
        differences.reserveCapacity(firstPasses.count)
        for (x, y) in zip(firstPasses, secondPasses) {
            differences.append((x ? 1 : 0) - (y ? 1 : 0))
        }
        self.init(differences: differences, configuration: configuration)
    }

    /// The same from precomputed per-case differences first[i] − second[i].
    public init?(differences: [Double], configuration: BootstrapConfiguration = .standard) {
        guard let result = MeanResampler.run(differences, configuration: configuration) else { return nil }
        count = differences.count
        meanDifference = result.mean
        standardDeviationOfDifferences = result.standardDeviation
        lower = result.lower
        upper = result.upper
        standardError = result.standardError
        pValue = result.pValue
        confidenceLevel = result.confidenceLevel
        method = result.method
    }

    /// True when the interval lies entirely above or entirely below zero.
    public var intervalExcludesZero: Bool { lower > 0 || upper < 0 }
}
