/// What flipped between a baseline run and a candidate run: per arm (same feature and arm id in both), the cases
/// that passed in the baseline and fail in the candidate, and the reverse, each with both outputs.
///
/// "Pass" is the report's adherence: every constraint passed. An error is a failure, except `unavailable`
/// (the arm was never sent), which is not measured and never flips. Results without constraints neither pass nor
/// fail. Lists are sorted by case id (numeric-aware) and repeat, and cut at the finder's limit; the counts say how
/// many flipped in all. Built by ``CaseFlips/find(store:baselineRunID:candidateRunID:limit:textLimit:)``, or from a
/// baseline `report.json` by ``CaseFlips/find(store:baseline:candidateRunID:limit:textLimit:)`` (then the baseline
/// side carries only pass/fail).
public struct CaseFlips: Sendable, Hashable, Codable {
    /// The run compared against.
    public var baselineRunID: String
    /// The run whose changes are listed.
    public var candidateRunID: String
    /// One entry per arm present in both runs, sorted by feature, then arm id.
    public var arms: [ArmFlips]

    /// Flips between two runs; see the properties.
    public init(baselineRunID: String, candidateRunID: String, arms: [ArmFlips]) {
        self.baselineRunID = baselineRunID
        self.candidateRunID = candidateRunID
        self.arms = arms
    }

    /// Pass→fail flips over every arm.
    public var passToFailCount: Int { arms.reduce(0) { $0 + $1.passToFailCount } }
    /// Fail→pass flips over every arm.
    public var failToPassCount: Int { arms.reduce(0) { $0 + $1.failToPassCount } }
}

/// The flips of one arm between two runs.
public struct ArmFlips: Sendable, Hashable, Codable {
    /// The feature.
    public var feature: String
    /// The arm id (`variant@model`), the same in both runs.
    public var armID: String
    /// Cases with a pass/fail outcome in both runs.
    public var pairedCount: Int
    /// How many cases passed in the baseline and fail in the candidate (``passToFail`` may list fewer).
    public var passToFailCount: Int
    /// How many cases failed in the baseline and pass in the candidate (``failToPass`` may list fewer).
    public var failToPassCount: Int
    /// The listed pass→fail cases, sorted by case id and repeat.
    public var passToFail: [FlippedCase]
    /// The listed fail→pass cases, sorted by case id and repeat.
    public var failToPass: [FlippedCase]

    /// An arm's flips; see the properties.
    public init(
        feature: String, armID: String, pairedCount: Int, passToFailCount: Int, failToPassCount: Int,
        passToFail: [FlippedCase], failToPass: [FlippedCase]
    ) {
        self.feature = feature
        self.armID = armID
        self.pairedCount = pairedCount
        self.passToFailCount = passToFailCount
        self.failToPassCount = failToPassCount
        self.passToFail = passToFail
        self.failToPass = failToPass
    }

    /// Pass→fail flips not listed because of the limit.
    public var omittedPassToFail: Int { passToFailCount - passToFail.count }
    /// Fail→pass flips not listed because of the limit.
    public var omittedFailToPass: Int { failToPassCount - failToPass.count }
}

/// One case whose outcome flipped, with the arm's result in both runs.
public struct FlippedCase: Sendable, Hashable, Codable {
    /// The dataset case id.
    public var caseID: String
    /// The repeat index.
    public var repeatIndex: Int
    /// The arm's result in the baseline run.
    public var baseline: CaseOutcome
    /// The arm's result in the candidate run.
    public var candidate: CaseOutcome

    /// A flipped case; see the properties.
    public init(caseID: String, repeatIndex: Int, baseline: CaseOutcome, candidate: CaseOutcome) {
        self.caseID = caseID
        self.repeatIndex = repeatIndex
        self.baseline = baseline
        self.candidate = candidate
    }
}
