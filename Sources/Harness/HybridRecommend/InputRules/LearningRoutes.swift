/// The routes a learned rule is built from and compared with, each walked once over every case: the current route,
/// all-device, all-cloud, the cascade, and the device and cloud orders with and without the cascade (a rule's two
/// sides).
struct LearningRoutes: Sendable {
    /// Tier indices: the device first, then the others.
    let deviceOrder: [Int]
    /// The tiers past the device, then the device (reached on their errors).
    let cloudOrder: [Int]
    let current: CaseOutcomes
    /// `sides[cascade ? 1 : 0]`: the device order and the cloud order.
    let sides: [(device: CaseOutcomes, cloud: CaseOutcomes)]
    /// The comparisons every output states, the current route first.
    let baselines: [(name: String, outcomes: CaseOutcomes)]
    /// Per case, the device's own pass share (for saying how the features relate to its failures).
    let devicePass: [Double]

    /// The routes over `cases`; `currentOrder` is the route in force as tier indices, walked with the policy's
    /// fallback conditions (the cascade when they include failed checks).
    init(_ cases: InputCaseTable, current currentOrder: [Int], checksFallback: Bool) {
        let count = cases.tiers.count
        let deviceOrder = Array(0..<count)
        let cloudOrder = Array(1..<count) + [0]
        self.deviceOrder = deviceOrder
        self.cloudOrder = cloudOrder
        current = CaseOutcomes(cases, order: currentOrder, cascade: checksFallback)
        sides = [false, true].map { cascade in
            (CaseOutcomes(cases, order: deviceOrder, cascade: cascade), CaseOutcomes(cases, order: cloudOrder, cascade: cascade))
        }
        let allDevice = CaseOutcomes(cases, order: [0], cascade: false)
        devicePass = allDevice.adherence
        baselines = [
            ("current route (\(currentOrder.map { cases.tiers[$0] }.joined(separator: " → ")))", current),
            ("all-device (\(cases.tiers[0]))", allDevice),
            ("all-cloud (\(cases.tiers[count - 1]))", CaseOutcomes(cases, order: [count - 1], cascade: false)),
            ("cascade (\(cases.tiers.joined(separator: " → ")) on a failed check)", sides[1].device),
        ]
    }

    /// The single test that best separates the device's failures, in words: why no rule was found.
    func strongestSplit(_ candidates: [RuleCandidate]) -> String {
        var best: (words: String, inside: Double, outside: Double)?
        for rule in candidates where rule.tests.count == 1 && !rule.cascade {
            let inside = rule.selected.indices.filter { rule.selected[$0] }.map { devicePass[$0] }
            let outside = rule.selected.indices.filter { !rule.selected[$0] }.map { devicePass[$0] }
            let entry = (rule.tests[0].plainWords, RuleSelection.mean(inside), RuleSelection.mean(outside))
            if abs(entry.1 - entry.2) > abs((best?.inside ?? 0) - (best?.outside ?? 0)) || best == nil { best = entry }
        }
        guard let best else { return "no feature splits the cases" }
        return String(
            format: "no feature is related to the device's failures strongly enough (the strongest split, %@, leaves the device passing %.0f %% on one side and %.0f %% on the other)",
            best.words, best.inside * 100, best.outside * 100)
    }
}
