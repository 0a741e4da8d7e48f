public import HybridCore

/// What a results browser shows of one stored result: the output, its checks and its measurements, without the
/// columns only reports and resumes need (hashes, config, retries, decode speed).
public struct ResultCell: Sendable, Hashable {
    /// The result's (run, case, arm, repeat) key.
    public var key: ResultKey
    /// The feature the result belongs to.
    public var feature: String
    /// The rendered user message that was sent; nil when not stored.
    public var renderedPrompt: String?
    /// The model's text; nil when the request failed before any output.
    public var rawOutput: String?
    /// Outcome of each constraint.
    public var constraints: [ConstraintOutcome]
    /// Quality scores.
    public var scores: [QualityScore]
    /// Time to first token and total time, in milliseconds.
    public var ttftMs: Double?
    /// Total time of the final attempt, in milliseconds.
    public var totalMs: Double
    /// Token usage; nil when the request failed without a usage report.
    public var usage: TokenUsage?
    /// Cost in US dollars; nil without a price.
    public var costUSD: Double?
    /// Why there is no usable output; nil on success.
    public var error: ResultError?
    /// True when the output came from the response cache.
    public var cacheHit: Bool

    /// A cell; normally read by `SQLiteResultStore.resultCells(run:feature:caseIDs:)`.
    public init(
        key: ResultKey, feature: String, renderedPrompt: String?, rawOutput: String?, constraints: [ConstraintOutcome],
        scores: [QualityScore], ttftMs: Double?, totalMs: Double, usage: TokenUsage?, costUSD: Double?,
        error: ResultError?, cacheHit: Bool
    ) {
        self.key = key
        self.feature = feature
        self.renderedPrompt = renderedPrompt
        self.rawOutput = rawOutput
        self.constraints = constraints
        self.scores = scores
        self.ttftMs = ttftMs
        self.totalMs = totalMs
        self.usage = usage
        self.costUSD = costUSD
        self.error = error
        self.cacheHit = cacheHit
    }

    /// True when the model was never asked (its arm was unavailable): neither a pass nor a failure.
    public var notMeasured: Bool { error?.kind == "unavailable" }

    /// True when every constraint held, false when one failed or the request errored (the report's adherence
    /// rule); nil when there was nothing to check or the arm was never sent.
    public var passed: Bool? {
        if let error { return error.kind == "unavailable" ? nil : false }
        return constraints.isEmpty ? nil : constraints.allSatisfy(\.passed)
    }
}

/// How many results one arm of one feature has in a run.
public struct ArmResultCount: Sendable, Hashable {
    /// The feature.
    public var feature: String
    /// The arm id (`variant@model`).
    public var armID: String
    /// Number of stored results.
    public var count: Int
    /// Of those, results of requests never sent (error kind `unavailable`: no API key, model not installed).
    public var notMeasuredCount: Int

    /// A count.
    public init(feature: String, armID: String, count: Int, notMeasuredCount: Int = 0) {
        self.feature = feature
        self.armID = armID
        self.count = count
        self.notMeasuredCount = notMeasuredCount
    }

    /// True when no result of the arm was measured.
    public var neverMeasured: Bool { count > 0 && notMeasuredCount == count }
}
