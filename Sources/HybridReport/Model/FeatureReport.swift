/// The report section of one feature: one row per arm, the paired comparisons between arms, and the worst cases.
public struct FeatureReport: Sendable, Hashable, Codable {
    /// The feature (prompt family) name.
    public var feature: String
    /// Every scorer seen on this feature, sorted.
    public var scorers: [String]
    /// Every constraint name seen on this feature, sorted.
    public var constraintNames: [String]
    /// The scorer the quality-vs-cost chart and the best-arm ranking use: the first of ``scorers``; nil without any.
    public var primaryScorer: String?
    /// The arm the default comparisons start from (see ``ReportBuilder`` for the ranking); nil without arms.
    public var bestArm: String?
    /// One summary per arm, sorted by arm id.
    public var arms: [ArmSummary]
    /// Paired comparisons between arms of this run, Holm-adjusted across the whole report.
    public var comparisons: [PairedComparison]
    /// Per arm, the cases that failed or scored lowest, worst first.
    public var worstCases: [WorstCase]
    /// "caseID#repeat" of each paired unit, the index space of every arm's ``ArmCases``; nil when the report
    /// omits per-case data (large runs).
    public var caseKeys: [String]?
    /// Per paired comparison, the two arms case by case (capped; see ``SideBySide``); nil in reports written
    /// before it existed.
    public var sideBySide: [SideBySide]?

    /// A feature section; normally made by ``ReportBuilder``.
    public init(
        feature: String, scorers: [String], constraintNames: [String], primaryScorer: String?, bestArm: String?,
        arms: [ArmSummary], comparisons: [PairedComparison], worstCases: [WorstCase], caseKeys: [String]?,
        sideBySide: [SideBySide]? = nil
    ) {
        self.feature = feature
        self.scorers = scorers
        self.constraintNames = constraintNames
        self.primaryScorer = primaryScorer
        self.bestArm = bestArm
        self.arms = arms
        self.comparisons = comparisons
        self.worstCases = worstCases
        self.caseKeys = caseKeys
        self.sideBySide = sideBySide
    }

    /// The arm with this id.
    public func arm(_ id: String) -> ArmSummary? {
        arms.first { $0.armID == id }
    }
}
