/// The (case, repeat) positions of one feature grouped by case, so that repeats are reduced to one value per case
/// before any interval or test: the case is the unit an eval samples (see ``RepeatReducer``).
///
/// Built only when some result has a repeat index above 0; a single-repeat run keeps its per-result arrays as they
/// are, so its report reads exactly as before.
struct CaseReduction {
    /// The distinct case ids, sorted: the reduced report's case keys.
    let caseIDs: [String]
    /// Per position (in the feature's key order), the index of its case in `caseIDs`.
    let caseOfPosition: [Int]
    /// The most repeats any case has.
    let repeats: Int
    let reducer: RepeatReducer

    /// The grouping of positions whose case ids and repeat indices are `caseIDs` and `repeatIndexes`; nil when
    /// every repeat index is 0 (nothing to reduce).
    init?(caseIDs positionCaseIDs: [String], repeatIndexes: [Int32], reducer: RepeatReducer) {
        guard repeatIndexes.contains(where: { $0 != 0 }) else { return nil }
        caseIDs = Array(Set(positionCaseIDs)).sorted()
        var index: [String: Int] = [:]
        index.reserveCapacity(caseIDs.count)
        for (position, id) in caseIDs.enumerated() { index[id] = position }
        caseOfPosition = positionCaseIDs.map { index[$0] ?? 0 }
        var perCase = [Int](repeating: 0, count: caseIDs.count)
        for position in caseOfPosition { perCase[position] += 1 }
        repeats = perCase.max() ?? 1
        self.reducer = reducer
    }

    /// Per case, the mean of its positions' values (NaN skipped); NaN when the case has none. Summed as offsets
    /// from the case's first value, so repeats that agree give that value exactly (no rounding from k·x / k).
    func means(_ values: [Double]) -> [Double] {
        var firsts = [Double](repeating: .nan, count: caseIDs.count)
        var offsets = [Double](repeating: 0, count: caseIDs.count)
        var counts = [Int](repeating: 0, count: caseIDs.count)
        for (position, value) in values.enumerated() where !value.isNaN && position < caseOfPosition.count {
            let unit = caseOfPosition[position]
            if counts[unit] == 0 { firsts[unit] = value } else { offsets[unit] += value - firsts[unit] }
            counts[unit] += 1
        }
        return firsts.indices.map { counts[$0] > 0 ? firsts[$0] + offsets[$0] / Double(counts[$0]) : .nan }
    }

    /// Per case, its checked repeats (codes 0 and 1; -1 is unchecked) reduced by `reducer`; NaN when none.
    func adherence(_ codes: [Int8]) -> [Double] {
        var passes = [Int](repeating: 0, count: caseIDs.count)
        var checked = [Int](repeating: 0, count: caseIDs.count)
        for (position, code) in codes.enumerated() where code >= 0 && position < caseOfPosition.count {
            checked[caseOfPosition[position]] += 1
            if code == 1 { passes[caseOfPosition[position]] += 1 }
        }
        return zip(passes, checked).map { reducer.reduce(passes: $0, checked: $1) ?? .nan }
    }
}
