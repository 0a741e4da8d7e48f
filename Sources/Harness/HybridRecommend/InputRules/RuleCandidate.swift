import HybridConfig
import HybridCore

/// One candidate of the learned family: one or two tests on measured features (a conjunction), the cases they
/// select (sent to the cloud order), and whether the cascade runs behind it (the device's answer re-asked of the
/// next tier when it fails a check). At most two tests: no more rule than a run of cases can support.
struct RuleCandidate: Sendable {
    /// The tests, all of which must hold.
    var tests: [InputTest]
    /// Per case of the table, whether the tests hold.
    var selected: [Bool]
    /// The cascade behind the rule.
    var cascade: Bool

    /// "inputCharacters ≥ 1500 and hasCode", with the cascade named.
    var plainWords: String {
        tests.map(\.plainWords).joined(separator: " and ") + (cascade ? " (cascade behind it)" : "")
    }

    /// The features the rule tests.
    var featureNames: [InputFeatures.Name] {
        tests.compactMap(\.feature)
    }

    /// Whether at least `minimum` of `indices` are selected and at least `minimum` are not.
    func hasBothSides(in indices: [Int], minimum: Int) -> Bool {
        let selectedCount = indices.reduce(0) { $0 + (selected[$1] ? 1 : 0) }
        return selectedCount >= minimum && indices.count - selectedCount >= minimum
    }

    /// The smallest side a rule may leave over `count` cases: 10 % of them and at least 5.
    static func minimumSide(of count: Int) -> Int {
        max(5, Int((Double(count) * 0.1).rounded(.up)))
    }
}

/// The candidates: single-threshold tests on every feature that varies (a grid of its observed quantiles, both
/// directions; a flag either way), and conjunctions of two tests on different features (a coarser grid), each
/// with and without the cascade.
enum RuleFamily {
    /// Quantile steps of the single tests' grid and of the conjunctions' grid.
    static let singleGrid = 20
    static let pairGrid = 10

    /// Every candidate over `table`'s cases that leaves `minimum` cases on each side over all of them.
    static func candidates(_ table: InputCaseTable, minimum: Int) -> [RuleCandidate] {
        let all = Array(0..<table.count)
        let singles = tests(table, grid: singleGrid).filter { hasSides($0.1, all, minimum) }
        let paired = tests(table, grid: pairGrid)
        var rules: [([InputTest], [Bool])] = singles.map { ([$0.0], $0.1) }
        for i in paired.indices {
            for j in paired.indices where j > i && paired[i].0.feature != paired[j].0.feature {
                let both = zip(paired[i].1, paired[j].1).map { $0 && $1 }
                if hasSides(both, all, minimum) { rules.append(([paired[i].0, paired[j].0], both)) }
            }
        }
        return rules.flatMap { rule in
            [false, true].map { RuleCandidate(tests: rule.0, selected: rule.1, cascade: $0) }
        }
    }

    /// The single tests of every varying feature, with the cases each selects.
    static func tests(_ table: InputCaseTable, grid: Int) -> [(InputTest, [Bool])] {
        var out: [(InputTest, [Bool])] = []
        for name in InputFeatures.Name.allCases {
            let values = table.features.map { $0.value(name) }
            if name.isFlag {
                guard Set(values).count > 1 else { continue }
                for flag in [true, false] { out.append((InputTest(name, equals: flag), values.map { ($0 != 0) == flag })) }
                continue
            }
            for threshold in thresholds(values, grid: grid, integral: name.isIntegral) {
                out.append((InputTest(name, atLeast: threshold), values.map { $0 >= threshold }))
                out.append((InputTest(name, below: threshold), values.map { $0 < threshold }))
            }
        }
        return out
    }

    /// Cut points at the observed quantiles j/grid: halfway between the value there and the next smaller observed
    /// value (rounded up for counts), so the cut separates the two and reads as a round figure where it can.
    static func thresholds(_ values: [Double], grid: Int, integral: Bool) -> [Double] {
        let sorted = values.sorted()
        var cuts: [Double] = []
        for j in 1..<grid {
            let value = sorted[min(sorted.count - 1, j * sorted.count / grid)]
            guard let below = sorted.last(where: { $0 < value }) else { continue }
            let middle = (below + value) / 2
            let cut = integral ? middle.rounded(.up) : middle
            if !cuts.contains(cut) { cuts.append(cut) }
        }
        return cuts
    }

    private static func hasSides(_ selected: [Bool], _ indices: [Int], _ minimum: Int) -> Bool {
        RuleCandidate(tests: [], selected: selected, cascade: false).hasBothSides(in: indices, minimum: minimum)
    }
}

extension InputFeatures.Name {
    /// Whether the feature counts something (its thresholds are written as whole numbers).
    var isIntegral: Bool { self != .digitShare && self != .nonLatinShare }
}
