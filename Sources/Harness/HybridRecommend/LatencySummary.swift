/// Latency of simulated requests: every attempt a request made, summed, in milliseconds.
public struct LatencySummary: Sendable, Hashable {
    /// Median latency, in milliseconds.
    public var p50: Double
    /// 95th-percentile latency, in milliseconds.
    public var p95: Double
    /// 99th-percentile latency, in milliseconds; NaN when not computed.
    public var p99: Double
    /// Mean with its bootstrap interval.
    public var mean: MeanEstimate

    /// Creates a summary; all figures are milliseconds.
    public init(p50: Double, p95: Double, mean: MeanEstimate, p99: Double = .nan) {
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.mean = mean
    }
}
