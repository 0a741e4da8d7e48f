/// How a rule is chosen on some cases (the training folds, or all of them for the rule written): the cheapest
/// candidate shown as good as the current route within half the margin (one-sided paired t on those cases) and
/// cheaper than it (half: the cheapest rule that passes spends whatever margin it is given, and the held-out test
/// against the full margin would then fail about as often as it passes); failing that, the candidate shown better at no more cost; failing that, none. A rule with the cascade
/// behind it must also be cheaper than the cascade alone (or better at no more cost): otherwise its gain is the
/// cascade's, and the rule itself is not supported by the data (a feature unrelated to failures would be
/// proposed as the cascade's vehicle).
struct RuleSelection: Sendable {
    /// Every candidate's outcome per case over the whole table.
    var outcomes: [CaseOutcomes]
    var candidates: [RuleCandidate]
    /// The current route's outcome per case.
    var current: CaseOutcomes
    /// The cascade alone (every request device first, the next tier on a failed check).
    var cascadeAlone: CaseOutcomes
    /// The adherence the route may lose (the policy's margin).
    var margin: Double
    /// How the candidates' two sides are routed: `sides[cascade ? 1 : 0]` = (device order, cloud order).
    init(candidates: [RuleCandidate], sides: [(device: CaseOutcomes, cloud: CaseOutcomes)], current: CaseOutcomes, margin: Double) {
        self.candidates = candidates
        self.current = current
        cascadeAlone = sides[1].device
        self.margin = margin
        outcomes = candidates.map { rule in
            let side = sides[rule.cascade ? 1 : 0]
            return side.device.picking(side.cloud, where: rule.selected)
        }
    }

    /// The index of the candidate chosen on `indices`, or nil when none qualifies. Rules without the cascade are
    /// tried first: one call per request and no second wait, so a cascade behind a rule is chosen only when no
    /// rule alone qualifies (its small savings over the cascade alone are otherwise a search's easy overfit).
    func choose(on indices: [Int]) -> Int? {
        choose(on: indices, cascade: false) ?? choose(on: indices, cascade: true)
    }

    private func choose(on indices: [Int], cascade withCascade: Bool) -> Int? {
        let minimum = RuleCandidate.minimumSide(of: indices.count)
        let reference = current.subset(indices)
        let referenceCost = Self.mean(reference.cost)
        var cheaper: (index: Int, cost: Double, adherence: Double)?
        var better: (index: Int, cost: Double, adherence: Double)?
        let cascade = cascadeAlone.subset(indices)
        for (index, rule) in candidates.enumerated() where rule.cascade == withCascade && rule.hasBothSides(in: indices, minimum: minimum) {
            let own = outcomes[index].subset(indices)
            let cost = Self.mean(own.cost)
            if rule.cascade && !Self.improves(own, on: cascade, cost: cost) { continue }
            let gain = OneSidedBound(own.adherence, minus: reference.adherence)
            let entry = (index, cost, gain.mean)
            if gain.lower > -margin / 2 && cost < referenceCost && !Self.nearlyEqual(cost, referenceCost) {
                if cheaper.map({ Self.ranks(entry, before: $0) }) ?? true { cheaper = entry }
            } else if gain.lower > 0 && (cost <= referenceCost || Self.nearlyEqual(cost, referenceCost)) {
                if better.map({ entry.2 > $0.adherence || (entry.2 == $0.adherence && Self.ranks(entry, before: $0)) }) ?? true { better = entry }
            }
        }
        return cheaper?.index ?? better?.index
    }

    /// Cheaper than `reference` (point estimate), or better (one-sided) at no more cost.
    private static func improves(_ own: CaseOutcomes, on reference: CaseOutcomes, cost: Double) -> Bool {
        let referenceCost = mean(reference.cost)
        if cost < referenceCost && !nearlyEqual(cost, referenceCost) { return true }
        return OneSidedBound(own.adherence, minus: reference.adherence).lower > 0 && (cost <= referenceCost || nearlyEqual(cost, referenceCost))
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
