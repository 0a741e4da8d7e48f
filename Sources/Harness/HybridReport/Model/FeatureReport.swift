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
    /// The paired unit of each position of every arm's ``ArmCases``: "caseID#repeat" in a single-repeat run, the
    /// case id when results repeat cases (``repeats``); nil when the report omits per-case data (large runs).
    public var caseKeys: [String]?
    /// How repeats were reduced to one value per case before every interval and test; nil when no case repeats.
    public var repeats: RepeatSummary?
    /// The arm `hybrid recommend` would serve first under the standard policy (the ★ of the rendered reports),
    /// with ``recommendation`` its reason; nil when no recommendation was made (the ★ is then ``bestArm``).
    public var recommendedArm: String?
    /// The recommender's decision in one line ("KEEP …: no candidate shown better …", "CHANGE to …").
    public var recommendation: String?
    /// Per paired comparison, the two arms case by case (capped; see ``SideBySide``); nil in reports written
    /// before it existed.
    public var sideBySide: [SideBySide]?
    /// Adherence against the share sent to the cloud for the learned single-threshold family, when the run's
    /// route has two tiers or more on the same cases (`hybrid report` adds it); nil otherwise and in older reports.
    public var costQualityCurve: CostQualityCurve?

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
        repeats = nil
        recommendedArm = nil
        recommendation = nil
    }

    /// The arm the reports star: the recommendation's first arm when there is one, else the best arm.
    public var starredArm: String? { recommendedArm ?? bestArm }

    /// The arm with this id.
    public func arm(_ id: String) -> ArmSummary? {
        arms.first { $0.armID == id }
    }
}

/// The unit of a feature whose cases ran several times: n cases × k repeats, reduced by one reducer.
public struct RepeatSummary: Sendable, Hashable, Codable {
    /// Distinct cases: the n of every interval and test.
    public var cases: Int
    /// The most repeats a case has.
    public var repeats: Int
    /// What a case's checks became (scores and latency are always the mean of its repeats).
    public var reducer: RepeatReducer

    /// A summary; see the properties.
    public init(cases: Int, repeats: Int, reducer: RepeatReducer) {
        self.cases = cases
        self.repeats = repeats
        self.reducer = reducer
    }

    /// "n = 10 cases × 5 repeats, reduced per case (checks: pass share; scores and latency: mean)".
    public var caption: String {
        "n = \(cases) cases × \(repeats) repeats, reduced per case before every interval and test "
            + "(checks: \(reducer.label); scores and latency: mean)"
    }
}
