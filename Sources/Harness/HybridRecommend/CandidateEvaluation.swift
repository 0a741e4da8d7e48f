/// One candidate route (a prompt variant and a priority order) judged against a feature's floors.
public struct CandidateEvaluation: Sendable {
    /// Prompt variant the route uses.
    public var variant: String
    /// Model ids, best first: the `priority` the config would get.
    public var order: [String]
    /// True for the feature's current variant and priority order.
    public var isCurrent: Bool
    /// Adherence with its Wilson interval.
    public var adherence: ProportionEstimate
    /// p95 of summed attempt latency, in milliseconds.
    public var p95LatencyMs: Double
    /// Mean dollars per 1,000 requests (point estimate; the interval is in `result`).
    public var costPer1k: Double
    /// Mean drop in quality against the current route (positive: worse) with its paired 95 % interval; nil for the
    /// current route, when no quality scorer applies, or when it was not computed.
    public var qualityDrop: MeanEstimate?
    /// Every floor judged so far.
    public var checks: [FloorCheck]
    /// The full figures with intervals; computed for the chosen and the current route.
    public var result: SimulationResult?

    /// Creates an evaluation; `Recommender` builds these.
    public init(
        variant: String, order: [String], isCurrent: Bool, adherence: ProportionEstimate, p95LatencyMs: Double,
        costPer1k: Double, qualityDrop: MeanEstimate? = nil, checks: [FloorCheck] = [], result: SimulationResult? = nil
    ) {
        self.variant = variant
        self.order = order
        self.isCurrent = isCurrent
        self.adherence = adherence
        self.p95LatencyMs = p95LatencyMs
        self.costPer1k = costPer1k
        self.qualityDrop = qualityDrop
        self.checks = checks
        self.result = result
    }

    /// Every floor held.
    public var meetsFloors: Bool { checks.allSatisfy(\.passed) }

    /// The floors that failed.
    public var failedChecks: [FloorCheck] { checks.filter { !$0.passed } }

    /// `variant: a → b`.
    public var label: String { "\(variant): \(order.joined(separator: " → "))" }
}
