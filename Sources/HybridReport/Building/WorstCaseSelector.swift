import HybridStore

/// Keeps the `limit` worst results of one arm while streaming, building the (text-heavy) ``WorstCase`` only for
/// results that enter the list.
///
/// Order, worst first: errors (except `unavailable`: never sent, nothing to look at), then constraint failures, then the rest by ascending mean score; ties by case id and
/// repeat so the list is deterministic whatever the storage order. Results that passed and have no score are
/// never listed: there is nothing to show about them.
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

    let limit: Int
    let textLimit: Int
    private(set) var entries: [(rank: Rank, value: WorstCase)] = []

    init(limit: Int, textLimit: Int) {
        self.limit = max(0, limit)
        self.textLimit = max(16, textLimit)
    }

    mutating func consider(_ record: ResultRecord) {
        guard limit > 0 else { return }
        let severity: Int
        if let error = record.error {
            // Never sent (no key, not installed): nothing about the model to look at.
            if error.kind == NotMeasured.errorKind { return }
            severity = 0
        } else if record.constraints.contains(where: { !$0.passed }) {
            severity = 1
        } else if !record.scores.isEmpty {
            severity = 2
        } else {
            return
        }
        var sum = 0.0
        for score in record.scores { sum += score.value }
        let mean = record.scores.isEmpty ? 0 : sum / Double(record.scores.count)
        let rank = Rank(severity: severity, meanScore: mean, caseID: record.key.caseID, repeatIndex: record.key.repeatIndex)
        if entries.count == limit, let last = entries.last, !(rank < last.rank) { return }
        let position = entries.firstIndex { rank < $0.rank } ?? entries.count
        entries.insert((rank, worstCase(record, severity: severity)), at: position)
        if entries.count > limit { entries.removeLast() }
    }

    var cases: [WorstCase] { entries.map(\.value) }

    private func worstCase(_ record: ResultRecord, severity: Int) -> WorstCase {
        let failed = CaseOutcome.failedChecks(record)
        var scores: [String: Double] = [:]
        for score in record.scores { scores[score.scorer] = score.value }
        return WorstCase(
            armID: record.key.armID,
            caseID: record.key.caseID,
            repeatIndex: record.key.repeatIndex,
            reason: ["error", "constraint-failed", "low-score"][severity],
            error: record.error.map { WorstCase.ErrorDetail(kind: $0.kind, message: truncate($0.message)) },
            failedConstraints: failed,
            scores: scores,
            input: record.renderedPrompt.map(truncate),
            output: record.rawOutput.map(truncate)
        )
    }

    private func truncate(_ text: String) -> String {
        CaseText.cut(text, limit: textLimit)
    }
}
