/// One arm's per-case vectors as its intervals and comparisons see them: the per-result vectors as they are, or,
/// when results repeat cases, one value per case (``CaseReduction``).
struct CaseFigures {
    /// Pass/fail codes (-1 nil) per result; used as they are when nothing is reduced.
    private let codes: [Int8]
    /// Reduced adherence per case (NaN nil); nil when nothing is reduced.
    private let reducedAdherence: [Double]?
    /// Per scorer, a value per case (NaN nil).
    let scores: [String: [Double]]
    /// Latency per case (NaN nil).
    let totalMs: [Double]
    private let caseCount: Int?

    init(adherence: [Int8], scores: [String: [Double]], totalMs: [Double], reduction: CaseReduction?) {
        codes = adherence
        guard let reduction else {
            reducedAdherence = nil
            self.scores = scores
            self.totalMs = totalMs
            caseCount = nil
            return
        }
        let reduced = reduction.adherence(adherence)
        reducedAdherence = reduced
        self.scores = scores.mapValues(reduction.means)
        self.totalMs = reduction.means(totalMs)
        caseCount = reduced.lazy.filter { !$0.isNaN }.count
    }

    /// The vectors paired comparisons read.
    var cases: ArmCases {
        guard let reducedAdherence else {
            return ArmCases(adherenceCodes: codes, scoreValues: scores, totalValues: totalMs)
        }
        return ArmCases(adherenceValues: reducedAdherence, scoreValues: scores, totalValues: totalMs)
    }

    /// The arm's adherence: over results, or the mean of the cases' reduced values with a Wilson interval on cases.
    func adherenceSummary(passed: Int, total: Int) -> ProportionSummary? {
        guard let reducedAdherence else { return ProportionSummary(passed: passed, total: total) }
        return ProportionSummary(passed: passed, total: total, caseValues: reducedAdherence)
    }

    /// One constraint's pass rate: its interval on the cases when results repeat them.
    func proportion(passed: Int, total: Int) -> ProportionSummary? {
        guard let caseCount else { return ProportionSummary(passed: passed, total: total) }
        return ProportionSummary(passed: passed, total: total, cases: max(1, caseCount))
    }
}
