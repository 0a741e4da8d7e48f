/// Expected quality of a route on one scorer: the mean score of what it served, with a bootstrap interval.
public struct QualityEstimate: Sendable, Hashable, CustomStringConvertible {
    /// The scorer's name, such as `token_f1`.
    public var scorer: String
    /// Mean score in the scorer's range with its bootstrap interval.
    public var estimate: MeanEstimate

    /// Creates an estimate.
    public init(scorer: String, estimate: MeanEstimate) {
        self.scorer = scorer
        self.estimate = estimate
    }

    public var description: String { "\(scorer) \(estimate.formatted { String(format: "%.3f", $0) })" }
}
