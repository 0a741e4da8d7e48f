/// How a rule is chosen on some cases (the training folds, or all of them for the rule written): the cheapest
/// candidate shown as good as the current route within the margin (one-sided paired t on those cases) and cheaper
/// than it; failing that, the candidate shown better at no more cost; failing that, none.
struct RuleSelection: Sendable {
    /// Every candidate's outcome per case over the whole table.
    var outcomes: [CaseOutcomes]
    var candidates: [RuleCandidate]
    /// The current route's outcome per case.
    var current: CaseOutcomes
    /// The adherence the route may lose (the policy's margin).
    var margin: Double
    /// How the candidates' two sides are routed: `sides[cascade ? 1 : 0]` = (device order, cloud order).
    init(candidates: [RuleCandidate], sides: [(device: CaseOutcomes, cloud: CaseOutcomes)], current: CaseOutcomes, margin: Double) {
        self.candidates = candidates
        self.current = current
        self.margin = margin
        outcomes = candidates.map { rule in
            let side = sides[rule.cascade ? 1 : 0]
            return side.device.picking(side.cloud, where: rule.selected)
        }
    }

    /// The index of the candidate chosen on `indices`, or nil when none qualifies.
    func choose(on indices: [Int]) -> Int? {
        let minimum = RuleCandidate.minimumSide(of: indices.count)
        let reference = current.subset(indices)
        let referenceCost = Self.mean(reference.cost)
        var cheaper: (index: Int, cost: Double, adherence: Double)?
        var better: (index: Int, cost: Double, adherence: Double)?
        for (index, rule) in candidates.enumerated() where rule.hasBothSides(in: indices, minimum: minimum) {
            let own = outcomes[index].subset(indices)
            let cost = Self.mean(own.cost)
            let gain = OneSidedBound(own.adherence, minus: reference.adherence)
            let entry = (index, cost, gain.mean)
            if gain.lower > -margin && cost < referenceCost && !Self.nearlyEqual(cost, referenceCost) {
                if cheaper.map({ Self.ranks(entry, before: $0) }) ?? true { cheaper = entry }
            } else if gain.lower > 0 && (cost <= referenceCost || Self.nearlyEqual(cost, referenceCost)) {
                if better.map({ entry.2 > $0.adherence || (entry.2 == $0.adherence && Self.ranks(entry, before: $0)) }) ?? true { better = entry }
            }
        }
        return cheaper?.index ?? better?.index
    }

    /// Cheaper first, then better adherence, then (candidates are listed plain before cascade, one test before two)
    /// the earlier.
    private static func ranks(_ a: (Int, Double, Double), before b: (index: Int, cost: Double, adherence: Double)) -> Bool {
        if !nearlyEqual(a.1, b.cost) { return a.1 < b.cost }
        if !nearlyEqual(a.2, b.adherence) { return a.2 > b.adherence }
        return a.0 < b.index
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }

    static func nearlyEqual(_ a: Double, _ b: Double) -> Bool { Recommender.nearlyEqual(a, b) }
}
