import HybridReport
import HybridRunner
import HybridStore

/// `hybrid judge-pairs`: the outputs two arms of a stored run gave to each case (first repeat), judged against each
/// other in both orders by a ``PairwiseJudge``, with people's labels where given.
struct PairwiseJudging: Sendable {
    var judge: PairwiseJudge
    /// Case id → "first" (arm A), "second" (arm B) or "tie", from people.
    var labels: [String: String]
    /// The arm ids whose outputs the judge's own model produced (self-preference cannot be told apart then).
    var judgeServes: Set<String>

    init(judge: PairwiseJudge, labels: [String: String] = [:], judgeServes: Set<String> = []) {
        self.judge = judge
        self.labels = labels
        self.judgeServes = judgeServes
    }

    /// Judges every case both arms answered. A judge call that fails is an error naming the case (nothing is
    /// judged half-way: the summary covers every case or none).
    func run(_ results: [ResultRecord], runID: String, armA: String, armB: String) async throws -> PairwiseSummary {
        let first = Self.outputs(results, arm: armA)
        let second = Self.outputs(results, arm: armB)
        let caseIDs = first.keys.filter { second[$0] != nil }.sorted()
        guard !caseIDs.isEmpty else {
            throw CLIError("arms \(armA) and \(armB) of run \(runID) have no case both answered; nothing to judge")
        }
        var cases: [PairwiseSummary.Case] = []
        var tokens = 0
        var cost = 0.0
        for id in caseIDs {
            let (a, b) = (first[id]!, second[id]!)
            let verdict: PairwiseJudge.Verdict
            do {
                verdict = try await judge.judge(prompt: a.renderedPrompt ?? "", first: a.rawOutput ?? "", second: b.rawOutput ?? "")
            } catch {
                throw CLIError("the judge failed on case \(id): \(error)")
            }
            tokens += verdict.usage.promptTokens + verdict.usage.completionTokens
            cost += verdict.costUSD
            cases.append(PairwiseSummary.Case(caseID: id, judged: verdict.preference?.rawValue, human: labels[id]))
        }
        var summary = PairwiseSummary(
            runID: runID, armA: armA, armB: armB, judge: judge.model.id, cases: cases, judgeTokens: tokens, judgeCostUSD: cost)
        if !judgeServes.isDisjoint(with: [armA, armB]) {
            summary.selfPreference = JudgeReliability.selfPreference(
                judge: judge.model.id,
                own: cases.map { c in c.judged.flatMap { $0 == "tie" ? nil : ($0 == "first") == judgeServes.contains(armA) } },
                others: nil).finding
        }
        return summary
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
