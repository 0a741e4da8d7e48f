package import HybridConfig
import HybridCore

/// A case the config's input rules send away from the policy's order: the rule, the variant its prompt is rendered
/// in and the arms (table indices) of the rule's priority the run measured.
struct RuleRoute: Sendable, Hashable {
    var rule: String
    var variant: String
    var arms: [Int]
}

extension RouteSimulator {
    /// Routes each case as the router's input rules would: the case's request rendered from `inputs[caseID]` for
    /// `variant` and measured the one way the router measures it (`FeatureConfig.inputFeatures`), the first rule
    /// holding for it and `labels` wins, and the case walks that rule's priority (the models of it the run measured,
    /// in the rule's variant, else `variant`). An unmeasurable request fails every test on its text, as in the
    /// router; a case without inputs is not measured. Returns how many cases a rule routes.
    @discardableResult
    package mutating func applyInputRules(
        _ rules: [InputRule], feature: FeatureConfig, name: String, variant: String, inputs: [String: [String: String]],
        labels: [String: String] = [:]
    ) throws(RecommendError) -> Int {
        ruleRoutes = [:]
        guard !rules.isEmpty else { return 0 }
        for (index, key) in table.cases.enumerated() {
            let features = inputs[key.caseID].flatMap { try? feature.inputFeatures(name: name, variant: variant, input: $0) }
            let measured = features?.isMeasurable == true ? features : nil
            guard let rule = rules.first(where: { $0.holds(measured, labels: labels) }) else { continue }
            ruleRoutes[index] = try route(of: rule, variant: variant)
        }
        return ruleRoutes.count
    }

    /// The arms `rule` sends a case down; throws when the run measured none of its models.
    private func route(of rule: InputRule, variant: String) throws(RecommendError) -> RuleRoute {
        let chosen = rule.variant ?? variant
        let ids = rule.priority.map { "\(chosen)@\($0)" }
        let arms = ids.compactMap(table.armIndex(of:))
        guard !arms.isEmpty else { throw .unknownArm(arm: ids.joined(separator: ", "), known: table.arms.map(\.id)) }
        return RuleRoute(rule: rule.name, variant: chosen, arms: arms)
    }

    /// The policy's arms followed by every other arm a rule routes to, in case order: the positions a trace's
    /// served and delivered figures index.
    func tracedArms(_ arms: [Int]) -> [Int] {
        var all = arms
        for index in ruleRoutes.keys.sorted() {
            for arm in ruleRoutes[index]?.arms ?? [] where !all.contains(arm) { all.append(arm) }
        }
        return all
    }
}

extension CaseWalk {
    /// This walk down `caseArms` with its positions read in `all` (the trace's arms), so cases walked down a
    /// rule's order and down the policy's share one list.
    func repositioned(from caseArms: [Int], into all: [Int]) -> CaseWalk {
        guard !all.starts(with: caseArms) else { return self }
        func position(_ p: Int) -> Int { all.firstIndex(of: caseArms[p]) ?? p }
        var out = self
        out.served = served.map(position)
        out.delivered = delivered.map { (position($0.position), $0.outcome) }
        out.hedge = hedge.map { (position($0.position), $0.costUSD) }
        return out
    }
}
