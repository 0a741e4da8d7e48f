/// Chooses the cases of one ``SideBySide`` from two arms' compact per-case arrays, before any text is read:
/// pass/fail disagreements first, then cases both fail, then the largest primary-score gap; among equals, the first
/// stored (an integer comparison: this runs once per case of a million-result run), shown in case-id order.
struct SideBySideSelector {
    let first: ArmAccumulator
    let second: ArmAccumulator
    let caseKeys: [String]
    let primaryScorer: String?
    let limit: Int

    private struct Candidate {
        var severity: Int
        var scoreGap: Double
        var index: Int

        func precedes(_ other: Candidate) -> Bool {
            if severity != other.severity { return severity < other.severity }
            if scoreGap != other.scoreGap { return scoreGap > other.scoreGap }
            return index < other.index
        }
    }

    /// The side by side with placeholder outcomes (``CaseOutcome/missing``) for ``CaseDetailFiller`` to fill.
    func select() -> SideBySide {
        var paired = 0
        var disagree = 0
        var chosen: [Candidate] = []
        // Looked up once, not per case: two dictionary lookups per case were most of the selection's time.
        var scores: (first: [Double], second: [Double])?
        if let scorer = primaryScorer, let x = first.scores[scorer], let y = second.scores[scorer] { scores = (x, y) }
        for index in caseKeys.indices {
            guard let a = Self.code(first, index), let b = Self.code(second, index) else { continue }
            paired += 1
            let (x, y) = (Self.verdict(a), Self.verdict(b))
            let severity: Int
            if let x, let y, x != y {
                severity = 0
                disagree += 1
            } else {
                severity = x == false && y == false ? 1 : 2
            }
            insert(Candidate(severity: severity, scoreGap: Self.scoreGap(scores, index), index: index), into: &chosen)
        }
        let listed = chosen.map { candidate in
            let (caseID, repeatIndex) = Self.split(caseKeys[candidate.index])
            return (candidate, PairedCase(caseID: caseID, repeatIndex: repeatIndex, first: .missing, second: .missing))
        }
        let shown = listed.sorted { a, b in
            if (a.0.severity, -a.0.scoreGap) != (b.0.severity, -b.0.scoreGap) {
                return (a.0.severity, -a.0.scoreGap) < (b.0.severity, -b.0.scoreGap)
            }
            return CaseText.precedes((a.1.caseID, a.1.repeatIndex), (b.1.caseID, b.1.repeatIndex))
        }
        return SideBySide(
            first: first.armID, second: second.armID, pairedCount: paired, disagreeCount: disagree,
            cases: shown.map(\.1), omittedCount: paired - chosen.count)
    }

    private func insert(_ candidate: Candidate, into list: inout [Candidate]) {
        if list.count >= limit {
            guard let last = list.last, candidate.precedes(last) else { return }
        }
        let position = list.firstIndex { candidate.precedes($0) } ?? list.count
        list.insert(candidate, at: position)
        if list.count > limit { list.removeLast() }
    }

    /// The two arms' primary-score gap at case `index`; 0 when either has none.
    private static func scoreGap(_ scores: (first: [Double], second: [Double])?, _ index: Int) -> Double {
        guard let scores, index < scores.first.count, index < scores.second.count else { return 0 }
        let (x, y) = (scores.first[index], scores.second[index])
        guard !x.isNaN, !y.isNaN else { return 0 }
        return abs(x - y)
    }

    private static func code(_ arm: ArmAccumulator, _ index: Int) -> ArmAccumulator.AdherenceCode? {
        guard index < arm.adherence.count, arm.adherence[index] != .absent else { return nil }
        return arm.adherence[index]
    }

    private static func verdict(_ code: ArmAccumulator.AdherenceCode) -> Bool? {
        switch code {
        case .passed: true
        case .failed, .errored: false
        case .absent, .unchecked: nil
        }
    }

    /// "caseID#repeat" back into its parts; the repeat follows the last `#`, so case ids may contain one.
    static func split(_ key: String) -> (caseID: String, repeatIndex: Int) {
        guard let hash = key.lastIndex(of: "#"), let repeatIndex = Int(key[key.index(after: hash)...]) else { return (key, 0) }
        return (String(key[..<hash]), repeatIndex)
    }
}
