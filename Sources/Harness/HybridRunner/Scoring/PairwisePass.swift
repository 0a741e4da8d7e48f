import HybridCore
public import HybridStore

/// Judges a stored run's arms against a baseline arm, case by case, with a ``PairwiseJudge`` (both orders each),
/// storing every verdict as it comes (`eval` and `rescore` with `--judge-mode pairwise`, `judge-pairs`).
///
/// Resumable: a case already judged by the same judge is not asked again, so a killed pass finishes where it
/// stopped; with the judge's response cache, a re-run of the same judgements costs nothing.
public struct PairwisePass: Sendable {
    /// Where the run's outputs are read and the verdicts written.
    public var store: any ResultStore
    /// The judge.
    public var judge: PairwiseJudge

    /// What a pass did.
    public struct Summary: Sendable, Hashable {
        /// Cases judged now.
        public var judged = 0
        /// Cases already judged by this judge, left as stored.
        public var alreadyStored = 0
        /// Cases not judged: the judge failed or the budget was spent (the first reason in ``firstFailure``).
        public var unjudged = 0
        public var firstFailure: String?
        /// What the judge's calls cost now (cached answers are free).
        public var judgeCostUSD = 0.0
        /// Every arm of the run, sorted: a baseline or an arm not among them was not judged.
        public var armsInRun: [String] = []
    }

    /// A pass over `store` with `judge`.
    public init(store: any ResultStore, judge: PairwiseJudge) {
        self.store = store
        self.judge = judge
    }

    /// Judges each arm in `arms` (default: every other arm of the baseline's feature) against `baseline` on every
    /// case both answered, using each arm's first answered repeat. `labels` (case id → the arm people preferred, or
    /// "tie") are stored beside the verdicts of the pairs they name, so every report measures the judge on them.
    public func run(
        runID: String, baseline: String, arms: [String]? = nil, labels: [String: String] = [:]
    ) async throws(StoreError) -> Summary {
        let results = try await store.results(run: runID)
        var summary = Summary()
        summary.armsInRun = Set(results.map(\.key.armID)).sorted()
        guard summary.armsInRun.contains(baseline), (arms ?? []).allSatisfy(summary.armsInRun.contains) else { return summary }
        let stored = Set(try await store.pairwiseVerdicts(run: runID).filter { $0.judge == judge.model.id }.map {
            [$0.armID, $0.baselineArmID, $0.caseID]
        })
        let baselineOutputs = Self.outputs(results, arm: baseline)
        let feature = results.first { $0.key.armID == baseline }?.feature ?? ""
        let challengers = arms ?? Set(results.filter { $0.feature == feature && $0.key.armID != baseline }.map(\.key.armID)).sorted()
        for arm in challengers {
            for (caseID, challenger) in Self.outputs(results, arm: arm).sorted(by: { $0.key < $1.key }) {
                guard let base = baselineOutputs[caseID] else { continue }
                if stored.contains([arm, baseline, caseID]) {
                    summary.alreadyStored += 1
                    continue
                }
                let verdict: PairwiseJudge.Verdict
                do {
                    verdict = try await judge.judge(
                        prompt: challenger.renderedPrompt ?? "", first: challenger.rawOutput ?? "", second: base.rawOutput ?? "")
                } catch {
                    summary.unjudged += 1
                    summary.firstFailure = summary.firstFailure ?? "case \(caseID) (\(arm)): \(error)"
                    continue
                }
                summary.judged += 1
                summary.judgeCostUSD += verdict.costUSD
                try await store.savePairwiseVerdict(PairwiseVerdictRecord(
                    runID: runID, feature: challenger.feature, caseID: caseID, armID: arm, baselineArmID: baseline,
                    judge: judge.model.id, outcome: Self.outcome(verdict.preference),
                    human: labels[caseID].flatMap { Self.human($0, arm: arm, baseline: baseline) }, rawAnswers: verdict.rawAnswers,
                    judgeTokens: verdict.usage.promptTokens + verdict.usage.completionTokens, judgeCostUSD: verdict.costUSD))
            }
        }
        return summary
    }

    /// The challenger was shown first in the judge's forward order.
    static func outcome(_ preference: PairwiseJudge.Preference?) -> PairwiseVerdictRecord.Outcome {
        switch preference {
        case .first: .arm
        case .second: .baseline
        case .tie: .tie
        case nil: .inconsistent
        }
    }

    /// People's preference for the pair: a label naming a third arm says nothing about this one.
    static func human(_ preferred: String, arm: String, baseline: String) -> PairwiseVerdictRecord.Outcome? {
        switch preferred {
        case arm: .arm
        case baseline: .baseline
        case "tie": .tie
        default: nil
        }
    }

    /// Each case's first answered repeat of `arm`.
    static func outputs(_ results: [ResultRecord], arm: String) -> [String: ResultRecord] {
        var byCase: [String: ResultRecord] = [:]
        for result in results where result.key.armID == arm && result.rawOutput != nil && result.error == nil {
            if let kept = byCase[result.key.caseID], kept.key.repeatIndex <= result.key.repeatIndex { continue }
            byCase[result.key.caseID] = result
        }
        return byCase
    }
}
