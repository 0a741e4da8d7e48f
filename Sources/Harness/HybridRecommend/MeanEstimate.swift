public import HybridReport

/// A mean with its bootstrap confidence interval (the interval is nil below two values).
public struct MeanEstimate: Sendable, Hashable, CustomStringConvertible {
    /// Number of values averaged.
    public var count: Int
    /// The mean, in the values' unit (scaled when built with a scale).
    public var mean: Double
    /// Lower bound of the confidence interval; nil below two values.
    public var lower: Double?
    /// Upper bound of the confidence interval; nil below two values.
    public var upper: Double?
    /// How the interval was computed, when there is one.
    public var method: IntervalMethod?

    /// Creates an estimate; leave the bounds nil when there is no interval.
    public init(count: Int, mean: Double, lower: Double? = nil, upper: Double? = nil, method: IntervalMethod? = nil) {
        self.count = count
        self.mean = mean
        self.lower = lower
        self.upper = upper
        self.method = method
    }

    /// The estimate of `values`' mean, multiplied by `scale` (1,000 for cost per 1,000 requests).
    public init(_ values: [Double], scale: Double = 1, configuration: BootstrapConfiguration = .standard) {
        count = values.count
        mean = values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) * scale
        if let interval = BootstrapMeanInterval(values, configuration: configuration) {
            lower = interval.lower * scale
            upper = interval.upper * scale
            method = interval.method
        }
    }

    /// `mean [lower, upper]` with `format` applied to each number.
    public func formatted(_ format: (Double) -> String) -> String {
        guard let lower, let upper else { return "\(format(mean)) (n=\(count), no interval)" }
        return "\(format(mean)) [95% CI \(format(lower)), \(format(upper))]"
    }

    public var description: String { formatted { String(format: "%.4g", $0) } }
}
