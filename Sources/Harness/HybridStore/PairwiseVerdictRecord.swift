/// One case's pairwise judgement as the store keeps it: `armID`'s answer judged against `baselineArmID`'s by a
/// judge asked in both orders (a row of `pairwise_verdicts`, migration v13).
///
/// Stored one by one as judging goes, so a killed judging pass resumes where it stopped and a report reads every
/// verdict without calling a model.
public struct PairwiseVerdictRecord: Sendable, Hashable, Codable {
    /// What the judge concluded for the case, in the record's terms.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Both orders preferred `armID`'s answer.
        case arm
        /// Both orders preferred the baseline's answer.
        case baseline
        /// Both orders said the answers tie.
        case tie
        /// The two orders disagreed or one could not be read: a position effect, counted apart.
        case inconsistent
    }

    /// The run whose outputs were judged.
    public var runID: String
    /// The feature both arms serve.
    public var feature: String
    /// The case.
    public var caseID: String
    /// The arm judged against the baseline.
    public var armID: String
    /// The arm it was judged against.
    public var baselineArmID: String
    /// The judge's model id.
    public var judge: String
    /// The verdict.
    public var outcome: Outcome
    /// What people said for this case and pair, when a label was given; nil otherwise (`inconsistent` never).
    public var human: Outcome?
    /// The judge's answers verbatim: the arm shown first, then the baseline shown first.
    public var rawAnswers: [String]
    /// Tokens the judge's calls used (not the arms').
    public var judgeTokens: Int
    /// Dollars the judge's calls cost; 0 when both came from the store's cache.
    public var judgeCostUSD: Double

    /// A record; see the properties.
    public init(
        runID: String, feature: String, caseID: String, armID: String, baselineArmID: String, judge: String,
        outcome: Outcome, human: Outcome? = nil, rawAnswers: [String], judgeTokens: Int, judgeCostUSD: Double
    ) {
        self.runID = runID
        self.feature = feature
        self.caseID = caseID
        self.armID = armID
        self.baselineArmID = baselineArmID
        self.judge = judge
        self.outcome = outcome
        self.human = human
        self.rawAnswers = rawAnswers
        self.judgeTokens = judgeTokens
        self.judgeCostUSD = judgeCostUSD
    }
}
