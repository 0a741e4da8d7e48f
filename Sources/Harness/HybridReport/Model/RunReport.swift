/// A whole report on one stored run: the JSON schema of `report.json` and the only source of every figure the
/// Markdown, HTML and JUnit renderers print.
///
/// Encode with ``jsonData(includeCases:)`` so keys are sorted and the output is byte-stable for golden tests and
/// committed baselines. The schema is documented in `docs/report-schema.md`; ``currentSchemaVersion`` changes
/// whenever a field is removed or changes meaning (adding optional fields keeps it).
public struct RunReport: Sendable, Hashable, Codable {
    /// The schema version this build writes.
    public static let currentSchemaVersion = 2

    /// Schema version of this document.
    public var schemaVersion: Int
    /// The stored run's id.
    public var runID: String
    /// What the store knows about the run; nil when the run record is missing (results without a run row).
    public var run: RunInfo?
    /// The statistical settings every interval and test in the report used.
    public var settings: ReportSettings
    /// One section per feature, sorted by feature name.
    public var features: [FeatureReport]
    /// Comparisons of this run against a baseline run, when the report was made by `hybrid compare`.
    public var baseline: BaselineComparison?
    /// Gate results, when gates were evaluated.
    public var gates: GateOutcome?
    /// For a field run (router events from apps): the split check, rollout arms and arm-vs-control comparisons;
    /// nil (and absent from the JSON) for offline runs.
    public var field: FieldAnalysis?
    /// When a judge scored the run: its measured agreement with people, or that it is unmeasured.
    public var judgeReliability: JudgeReliabilitySummary?
    /// Pairwise judgements stored with the run (`--judge-mode pairwise`, `judge-pairs`): per arm, baseline and judge,
    /// the wins, ties, flips and how far the judge can be believed; nil (absent from the JSON) without any.
    public var pairwise: [PairwiseSummary]?

    /// A report; normally made by ``ReportBuilder``.
    public init(
        runID: String,
        run: RunInfo?,
        settings: ReportSettings,
        features: [FeatureReport],
        baseline: BaselineComparison? = nil,
        gates: GateOutcome? = nil
    ) {
        schemaVersion = Self.currentSchemaVersion
        self.runID = runID
        self.run = run
        self.settings = settings
        self.features = features
        self.baseline = baseline
        self.gates = gates
    }

    /// The feature section with this name.
    public func feature(_ name: String) -> FeatureReport? {
        features.first { $0.feature == name }
    }

    /// Total number of results across features and arms.
    public var resultCount: Int {
        features.reduce(0) { $0 + $1.arms.reduce(0) { $0 + $1.count } }
    }
}

/// What the store recorded about the run itself.
public struct RunInfo: Sendable, Hashable, Codable {
    /// `running`, `completed` or `interrupted`.
    public var status: String
    /// Start time, ISO 8601 UTC.
    public var startedAt: String
    /// Finish time, ISO 8601 UTC; nil while running.
    public var finishedAt: String?
    /// The dataset file the run read.
    public var datasetPath: String
    /// Content hash of that dataset.
    public var datasetHash: String
    /// Config version used, when known.
    public var configVersion: Int?
    /// Config hash used, when known.
    public var configHash: String?
    /// Planned (case, arm, repeat) keys.
    public var plannedCount: Int
    /// Dataset lines skipped as invalid.
    public var skippedInvalidLines: Int
    /// For a run made by `hybrid rescore`: the run whose outputs were re-scored; nil for a run of model calls.
    public var rescoredFrom: String?
    /// For a re-scored run: what differs from the source run (checks, scorers, judge).
    public var rescoreChanges: [String]?
    /// The app labels the run's config was resolved for (`hybrid eval --label`); nil without any.
    public var labels: [String: String]?

    /// Run information; see the properties.
    public init(
        status: String, startedAt: String, finishedAt: String?, datasetPath: String, datasetHash: String,
        configVersion: Int?, configHash: String?, plannedCount: Int, skippedInvalidLines: Int,
        rescoredFrom: String? = nil, rescoreChanges: [String]? = nil, labels: [String: String]? = nil
    ) {
        self.labels = labels
        self.rescoredFrom = rescoredFrom
        self.rescoreChanges = rescoreChanges
        self.status = status
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.datasetPath = datasetPath
        self.datasetHash = datasetHash
        self.configVersion = configVersion
        self.configHash = configHash
        self.plannedCount = plannedCount
        self.skippedInvalidLines = skippedInvalidLines
    }
}

/// The statistical settings of a report, printed with it so every interval can be reproduced.
public struct ReportSettings: Sendable, Hashable, Codable {
    /// Two-sided confidence level of every interval (0.95).
    public var confidenceLevel: Double
    /// Significance level of the paired tests after Holm correction.
    public var alpha: Double
    /// Power assumed by the minimum detectable effect.
    public var power: Double
    /// Bootstrap resamples.
    public var bootstrapResamples: Int
    /// Bootstrap seed (SplitMix64) as 16 hex digits: a JSON number would lose precision above 2⁵³ in JavaScript.
    public var bootstrapSeed: String
    /// Above this many values a mean's interval uses the normal approximation instead of resampling.
    public var bootstrapMaximumResampledCount: Int

    /// Settings; see the properties.
    public init(
        confidenceLevel: Double, alpha: Double, power: Double, bootstrapResamples: Int, bootstrapSeed: String,
        bootstrapMaximumResampledCount: Int
    ) {
        self.confidenceLevel = confidenceLevel
        self.alpha = alpha
        self.power = power
        self.bootstrapResamples = bootstrapResamples
        self.bootstrapSeed = bootstrapSeed
        self.bootstrapMaximumResampledCount = bootstrapMaximumResampledCount
    }
}
