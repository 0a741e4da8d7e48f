import HybridStore

/// Keeps the `limit` worst results of one arm while streaming measures; the (text-heavy) ``WorstCase`` is filled
/// afterwards from only the listed results, read by key (``CaseDetailFiller``).
///
/// Order, worst first: errors (except `unavailable`: never sent, nothing to look at), then constraint failures, then the rest by ascending mean score; ties by case id and
/// repeat so the list is deterministic whatever the storage order. Results that passed with full marks on every
/// scorer (or no score) are never listed: there is nothing wrong to show about them.
struct WorstCaseSelector {
    struct Rank: Comparable {
        var severity: Int
        var meanScore: Double
        var caseID: String
        var repeatIndex: Int

        static func < (lhs: Rank, rhs: Rank) -> Bool {
            (lhs.severity, lhs.meanScore, lhs.caseID, lhs.repeatIndex)
                < (rhs.severity, rhs.meanScore, rhs.caseID, rhs.repeatIndex)
        }
    }

    /// The `reason` of a worst case, by severity.
    static let reasons = ["error", "constraint-failed", "low-score"]

    let limit: Int
    private(set) var entries: [(rank: Rank, armID: String)] = []

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Considers row `row` of a page.
    mutating func consider(_ columns: MeasureColumns, row: Int) {
        guard limit > 0 else { return }
        let scores = columns.scoreRange(row)
        let severity: Int
        let errorCode = Int(columns.errorKindCodes[row])
        if errorCode >= 0 {
            // Never sent (no key, not installed): nothing about the model to look at.
            if columns.texts[errorCode] == NotMeasured.errorKind { return }
            severity = 0
        } else if columns.constraintRange(row).contains(where: { !columns.constraintPassed[$0] }) {
            severity = 1
        } else if scores.contains(where: { columns.scoreValues[$0] < 1 }) {
            // Only a score below full marks is worth looking at; a perfect case is not a "worst" one.
            severity = 2
        } else {
            return
        }
        var sum = 0.0
        for position in scores { sum += columns.scoreValues[position] }
        let mean = scores.isEmpty ? 0 : sum / Double(scores.count)
        // Most rows rank below a full list on severity and score alone: decided before the case id is touched.
        if entries.count == limit, let last = entries.last,
            (severity, mean) > (last.rank.severity, last.rank.meanScore)
        {
            return
        }
        let rank = Rank(
            severity: severity, meanScore: mean, caseID: columns.texts[Int(columns.caseCodes[row])],
            repeatIndex: columns.repeatIndexes[row])
        if entries.count == limit, let last = entries.last, !(rank < last.rank) { return }
        let position = entries.firstIndex { rank < $0.rank } ?? entries.count
        entries.insert((rank, columns.texts[Int(columns.armCodes[row])]), at: position)
        if entries.count > limit { entries.removeLast() }
    }

    /// The listed cases with their key and reason only; ``CaseDetailFiller`` adds error, checks, scores and texts.
    var cases: [WorstCase] {
        entries.map { entry in
            WorstCase(
                armID: entry.armID, caseID: entry.rank.caseID, repeatIndex: entry.rank.repeatIndex,
                reason: Self.reasons[entry.rank.severity], error: nil, failedConstraints: [], scores: [:], input: nil,
                output: nil)
        }
    }
}

extension WorstCase {
    /// A listed worst case filled from its stored result, texts cut at `textLimit` characters (at least 16).
    init(_ record: ResultRecord, reason: String, textLimit: Int) {
        let limit = max(16, textLimit)
        var scores: [String: Double] = [:]
        for score in record.scores { scores[score.scorer] = score.value }
        self.init(
            armID: record.key.armID,
            caseID: record.key.caseID,
            repeatIndex: record.key.repeatIndex,
            reason: reason,
            error: record.error.map { WorstCase.ErrorDetail(kind: $0.kind, message: CaseText.cut($0.message, limit: limit)) },
            failedConstraints: CaseOutcome.failedChecks(record),
            scores: scores,
            input: record.renderedPrompt.map { CaseText.cut($0, limit: limit) },
            output: record.rawOutput.map { CaseText.cut($0, limit: limit) }
        )
    }
}
