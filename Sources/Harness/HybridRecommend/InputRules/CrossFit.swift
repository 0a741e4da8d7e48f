import HybridReport

/// Cross-fitting: the cases split into `k` folds (seeded, and stable: the same cases and seed give the same folds);
/// on each fold the rule is chosen on the other folds and applied to it, so every case's outcome comes from a rule
/// not chosen on it, and the search among candidates cannot flatter the figures.
struct CrossFit: Sendable {
    /// Per fold, the case indices it holds (sorted).
    let folds: [[Int]]

    /// `count` cases in `k` folds: a seeded shuffle, then dealt in turn.
    init(count: Int, k: Int = 5, seed: UInt64 = 67) {
        var order = Array(0..<count)
        var rng = SplitMix64(seed: seed)
        order.shuffle(using: &rng)
        var folds = Array(repeating: [Int](), count: max(1, min(k, count)))
        for (position, index) in order.enumerated() { folds[position % folds.count].append(index) }
        self.folds = folds.map { $0.sorted() }
    }

    /// The outcome per case of choosing on the other folds, per fold the candidate chosen (nil: none qualified
    /// there, and that fold keeps the current route), and per case whether its fold's rule sent it to the cloud.
    func run(_ selection: RuleSelection, count: Int) -> (outcomes: CaseOutcomes, chosen: [Int?], selected: [Bool]) {
        var outcomes = selection.current
        var chosen: [Int?] = []
        var selected = Array(repeating: false, count: count)
        for fold in folds {
            let held = Set(fold)
            let training = (0..<count).filter { !held.contains($0) }
            let pick = selection.choose(on: training)
            chosen.append(pick)
            guard let pick else { continue }
            outcomes.place(selection.outcomes[pick].subset(fold), at: fold)
            for i in fold { selected[i] = selection.candidates[pick].selected[i] }
        }
        return (outcomes, chosen, selected)
    }
}
