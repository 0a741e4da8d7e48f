/// Count, mean and variance of a sample in one pass and constant memory (Welford 1962).
///
/// Used for quality means, the SD of paired differences (for the minimum detectable effect) and the normal
/// approximation of large-n bootstraps. Welford's update avoids the cancellation of the naive Σx² − n·x̄² formula,
/// which matters for latencies in the thousands of milliseconds with small spread.
public struct SampleMoments: Sendable, Hashable {
    /// Number of values added.
    public private(set) var count = 0
    /// The arithmetic mean; 0 while empty.
    public private(set) var mean = 0.0
    private var sumOfSquaredDeviations = 0.0

    /// An empty accumulator.
    public init() {}

    /// The moments of `values`.
    public init(_ values: some Sequence<Double>) {
        for value in values {
            add(value)
        }
    }

    /// Adds one value.
    public mutating func add(_ value: Double) {
        count += 1
        let delta = value - mean
        mean += delta / Double(count)
        sumOfSquaredDeviations += delta * (value - mean)
    }

    /// The sample variance (divisor n − 1); nil with fewer than two values.
    public var variance: Double? {
        count >= 2 ? sumOfSquaredDeviations / Double(count - 1) : nil
    }

    /// The sample standard deviation (divisor n − 1); nil with fewer than two values.
    public var standardDeviation: Double? {
        variance.map { $0.squareRoot() }
    }

    /// The standard error of the mean, SD / √n; nil with fewer than two values.
    public var standardErrorOfMean: Double? {
        standardDeviation.map { $0 / Double(count).squareRoot() }
    }
}
