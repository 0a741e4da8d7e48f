/// One paired comparison of a metric between two arms on the cases both ran, with its Holm-adjusted verdict.
///
/// `difference`, `lower` and `upper` are first − second. A winner is named only when the interval excludes zero
/// and the adjusted p is below α; otherwise ``verdict`` says "no detectable difference at n = …".
public struct PairedComparison: Sendable, Hashable, Codable {
    /// The feature both arms belong to.
    public var feature: String
    /// `adherence`, `quality:<scorer>` or `latency.totalMs`.
    public var metric: String
    /// `mcnemar-exact` (pass/fail), `paired-sign-flip` (scores, latency, pass shares; `paired-bootstrap` above the
    /// resampling limit), or `unpaired-normal` when a baseline report carried no per-case data.
    public var test: String
    /// First arm (for baseline comparisons, the current run's arm).
    public var first: String
    /// Second arm (for baseline comparisons, the baseline's arm).
    public var second: String
    /// Pairs compared (for unpaired comparisons, the smaller sample).
    public var count: Int
    /// Mean of the first arm on the compared cases (a pass rate for adherence).
    public var firstMean: Double
    /// Mean of the second arm on the compared cases.
    public var secondMean: Double
    /// firstMean − secondMean.
    public var difference: Double
    /// Lower bound of the interval of the difference; nil when not computable.
    public var lower: Double?
    /// Upper bound; nil when not computable.
    public var upper: Double?
    /// Unadjusted p-value; nil when not computable.
    public var pValue: Double?
    /// Holm-adjusted p-value across every comparison in the report.
    public var adjustedPValue: Double?
    /// McNemar's discordant pairs: first passed and second failed.
    public var firstOnlyPassed: Int?
    /// McNemar's discordant pairs: second passed and first failed.
    public var secondOnlyPassed: Int?
    /// Minimum detectable effect at this n (α, power from the settings), in the metric's units.
    public var minimumDetectableEffect: Double?
    /// `percentile-bootstrap`, `normal-approximation` or `exact` — how the interval / p was obtained.
    public var method: String
    /// `higher-is-better` or `lower-is-better`.
    public var direction: String
    /// `first-better`, `second-better` or `no-detectable-difference`.
    public var outcome: String
    /// The sentence printed in reports.
    public var verdict: String

    /// A comparison; normally made by the report builder.
    public init(
        feature: String, metric: String, test: String, first: String, second: String, count: Int, firstMean: Double,
        secondMean: Double, difference: Double, lower: Double?, upper: Double?, pValue: Double?,
        adjustedPValue: Double?, firstOnlyPassed: Int?, secondOnlyPassed: Int?, minimumDetectableEffect: Double?,
        method: String, direction: String, outcome: String, verdict: String
    ) {
        self.feature = feature
        self.metric = metric
        self.test = test
        self.first = first
        self.second = second
        self.count = count
        self.firstMean = firstMean
        self.secondMean = secondMean
        self.difference = difference
        self.lower = lower
        self.upper = upper
        self.pValue = pValue
        self.adjustedPValue = adjustedPValue
        self.firstOnlyPassed = firstOnlyPassed
        self.secondOnlyPassed = secondOnlyPassed
        self.minimumDetectableEffect = minimumDetectableEffect
        self.method = method
        self.direction = direction
        self.outcome = outcome
        self.verdict = verdict
    }

    /// True when the first arm is detectably worse than the second (the direction-aware loss).
    public var firstIsWorse: Bool { outcome == "second-better" }
}
