public import HybridStore

extension PairwiseSummary {
    /// One summary per (baseline, arm, judge) of a run's stored verdicts, the baseline as A and the arm as B. When the
    /// judge's model served one of the two arms, its self-preference is measured against the other judges of the
    /// same pair, or warned about when it judged alone.
    public static func all(from verdicts: [PairwiseVerdictRecord]) -> [PairwiseSummary] {
        let groups = Dictionary(grouping: verdicts) { [$0.baselineArmID, $0.armID, $0.judge] }
        return groups.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { key in
            let mine = groups[key]!
            let others = verdicts.filter { $0.baselineArmID == key[0] && $0.armID == key[1] && $0.judge != key[2] }
            return PairwiseSummary(verdicts: mine, others: others)
        }
    }

    /// The summary of one judge's verdicts on one pair (`verdicts` non-empty); `others` are other judges' verdicts on
    /// the same pair, for self-preference.
    init(verdicts: [PairwiseVerdictRecord], others: [PairwiseVerdictRecord]) {
        let first = verdicts[0]
        self.init(
            runID: first.runID, armA: first.baselineArmID, armB: first.armID, judge: first.judge,
            cases: verdicts.map { Case(caseID: $0.caseID, judged: Self.judged($0.outcome), human: $0.human.flatMap(Self.judged)) },
            judgeTokens: verdicts.reduce(0) { $0 + $1.judgeTokens }, judgeCostUSD: verdicts.reduce(0) { $0 + $1.judgeCostUSD })
        let served = [first.baselineArmID, first.armID].first { Self.model(ofArm: $0) == first.judge }
        guard let served else { return }
        let ownIsArm = served == first.armID
        func ownWins(_ records: [PairwiseVerdictRecord]) -> [Bool?] {
            records.map { record in
                switch record.outcome {
                case .arm: ownIsArm
                case .baseline: !ownIsArm
                case .tie, .inconsistent: nil
                }
            }
        }
        let measured = JudgeReliability.selfPreference(
            judge: first.judge, own: ownWins(verdicts), others: others.isEmpty ? nil : ownWins(others))
        // A second judge that clears it leaves nothing to warn about.
        if others.isEmpty || measured.flagged { selfPreference = measured.finding }
    }

    /// People's labels and the judge's verdicts read alike:
    /// "first" (the baseline, A), "second" (the arm, B), "tie", or nil for a flip.
    private static func judged(_ outcome: PairwiseVerdictRecord.Outcome) -> String? {
        switch outcome {
        case .baseline: "first"
        case .arm: "second"
        case .tie: "tie"
        case .inconsistent: nil
        }
    }

    /// The model of an arm id `variant@model`.
    static func model(ofArm arm: String) -> String {
        arm.firstIndex(of: "@").map { String(arm[arm.index(after: $0)...]) } ?? arm
    }
}
