package import Foundation
package import HybridConfig
package import HybridCore
public import HybridReport

/// Learns at most one input rule for a feature from a run in which its route's models answered the same cases
/// (`hybrid recommend RUN --by-input`): a threshold on one measured feature or a conjunction of two, sending the
/// requests it selects to the cloud order and the rest to the device order, with or without the cascade behind it.
///
/// Every figure it states is cross-fitted (the rule chosen on k − 1 folds, applied to the held-out one), and a rule
/// is proposed only when that procedure is shown, against the **current route** and on cases, as good within the
/// policy's adherence margin and cheaper (one-sided paired tests at α = 0.05), or better at no more cost; and only
/// when a rule was chosen on every fold, so the figures describe routing by a rule and not the current route.
public struct InputRuleLearner: Sendable {
    /// The adherence margin (`maxAdherenceDrop`) and fallback conditions of the route in force.
    public var policy: RecommendationPolicy
    /// Intervals of the stated figures.
    public var bootstrap: BootstrapConfiguration
    /// Folds of the cross-fit and its seed.
    public var folds: Int
    public var seed: UInt64
    /// Names the tool in `provenance.producedBy`.
    public var producedBy: String

    /// The fewest cases a rule is learned from: five folds whose training part can hold 5 cases on each side.
    public static let minimumCases = 20

    /// A learner with the standard policy, 5 folds and a fixed seed.
    public init(
        policy: RecommendationPolicy = .standard, bootstrap: BootstrapConfiguration = .standard, folds: Int = 5,
        seed: UInt64 = 67, producedBy: String = "hybrid recommend --by-input"
    ) {
        self.policy = policy
        self.bootstrap = bootstrap
        self.folds = folds
        self.seed = seed
        self.producedBy = producedBy
    }

    /// Learns from `table` under `document` (the run's own config), with `features` per case id measured by
    /// `FeatureConfig.inputFeatures(name:variant:input:)`. Refusals (one tier, cases missing) are a recommendation
    /// that proposes nothing, saying why.
    package func learn(
        table: RunOutcomeTable, document: HybridConfigDocument, features: [String: InputFeatures], now: Date = Date()
    ) throws(RecommendError) -> InputRuleRecommendation {
        guard let config = document.features[table.feature] else { throw .featureNotInConfig(feature: table.feature) }
        let floors = policy.floors(for: table.feature, config: config)
        let measured = config.priority.filter { Self.answered($0, variant: config.defaultVariant, in: table) }
        let tiers = Self.tiers(measured, table: table, document: document)
        let cases: InputCaseTable
        do throws(InputRuleRefusal) {
            cases = try InputCaseTable.build(
                table, variant: config.defaultVariant, tiers: tiers, features: features, scorer: qualityScorer(floors, table: table)?.index)
            guard cases.count >= Self.minimumCases else {
                throw InputRuleRefusal.tooFewCases(runID: table.runID, count: cases.count, needed: Self.minimumCases)
            }
        } catch {
            return InputRuleRecommendation(runID: table.runID, feature: table.feature, tiers: tiers, refusal: error)
        }
        let checksFallback = floors.fallback.contains { if case .error = $0 { false } else { true } }
        let current = config.priority.compactMap { tiers.firstIndex(of: $0) }
        let quality = qualityScorer(floors, table: table).map { (scorer: $0.name, margin: $0.margin) }
        var recommendation = learn(cases, current: current, checksFallback: checksFallback, margin: floors.maxAdherenceDrop, quality: quality)
        if let floor = floors.maxQualityDrop, quality == nil {
            // As `recommend` does: a floor on a scorer the run has no scores of cannot be judged, and is said.
            recommendation.notes.append("quality scorer \(floor.scorer ?? "(the run's first)") has no scores in the run (scorers: \(table.scorers.isEmpty ? "none" : table.scorers.joined(separator: ", "))); quality is not compared")
        }
        if recommendation.proposed, let rule = recommendation.rule {
            recommendation.document = proposedDocument(
                document, feature: table.feature, runID: table.runID, rule: rule, cascade: recommendation.cascade, tiers: tiers, now: now)
        }
        return recommendation
    }

    /// The scorer the policy's quality floor judges (its own, else the run's first alphabetically, as `recommend`
    /// reads it), its index in the run's scores and the margin; nil without a floor or without that scorer's scores.
    func qualityScorer(_ floors: FeatureFloors, table: RunOutcomeTable) -> (name: String, index: Int, margin: Double)? {
        guard let floor = floors.maxQualityDrop, let name = floor.scorer ?? table.scorers.first,
            let index = table.scorers.firstIndex(of: name)
        else { return nil }
        return (name, index, floor.value)
    }

    /// Whether `model` answered any case of the run on the default variant: a model the eval machine could not reach
    /// (no key) is stored as `unavailable` on every case and is not a tier that was measured.
    static func answered(_ model: String, variant: String, in table: RunOutcomeTable) -> Bool {
        guard let arm = table.armIndex(of: "\(variant)@\(model)") else { return false }
        return table.outcomes.contains { row in row[arm].map { $0.errorKind != "unavailable" } ?? false }
    }

    /// The route's models, device first: ordered by tier, the route's order within a tier.
    static func tiers(_ route: [String], table: RunOutcomeTable, document: HybridConfigDocument) -> [String] {
        func tier(_ id: String) -> ModelTier {
            document.models[id]?.tier ?? table.arms.first { $0.modelID == id }?.tier ?? .thirdParty
        }
        return route.enumerated().sorted { (tier($0.element), $0.offset) < (tier($1.element), $1.offset) }.map(\.element)
    }

    /// The search, the cross-fit and the decision over a table already checked; `current` is the route in force
    /// as tier indices (the calibration zoo calls this on its synthetic tables).
    package func learn(
        _ cases: InputCaseTable, current: [Int], checksFallback: Bool = false, margin: Double,
        quality: (scorer: String, margin: Double)? = nil
    ) -> InputRuleRecommendation {
        let routes = LearningRoutes(cases, current: current, checksFallback: checksFallback)
        var out = InputRuleRecommendation(runID: cases.runID, feature: cases.feature, tiers: cases.tiers, refusal: nil)
        out.baselines = routes.baselines.map { RouteFigures(name: $0.name, $0.outcomes, configuration: bootstrap) }
        out.curve = CurveBuilder(cases: cases, routes: routes).best()
        let candidates = RuleFamily.candidates(cases, minimum: RuleCandidate.minimumSide(of: cases.count))
        guard !candidates.isEmpty else {
            out.reason = "no measured feature of the requests varies enough to split them (each side needs \(RuleCandidate.minimumSide(of: cases.count)) cases), so no rule is proposed"
            return out
        }
        let selection = RuleSelection(candidates: candidates, sides: routes.sides, current: routes.current, margin: margin)
        let crossFit = CrossFit(count: cases.count, k: folds, seed: seed).run(selection, count: cases.count)
        out.learned = RouteFigures(name: "learned rule (cross-fitted)", crossFit.outcomes, configuration: bootstrap)
        out.foldRules = crossFit.chosen.map { $0.map { candidates[$0].plainWords } }
        out.sentToCloud = SelectionShare(crossFit.selected)
        let verdict = Verdict(crossFit.outcomes, current: routes.current, margin: margin, qualityFloor: quality)
        out.verdict = verdict
        guard let chosen = selection.choose(on: Array(0..<cases.count)) else {
            out.reason = "no rule is as good as the current route within \(Self.points(margin)) and cheaper, or better at no more cost, on all \(cases.count) cases: \(routes.strongestSplit(candidates))"
            return out
        }
        out.rule = InputRule(
            name: "learned-\(cases.feature)", when: candidates[chosen].tests, priority: routes.cloudOrder.map { cases.tiers[$0] })
        out.cascade = candidates[chosen].cascade
        out.ruleWords = candidates[chosen].plainWords
        out.learned?.span(inSample(candidates[chosen], routes: routes))
        let unchosen = crossFit.chosen.enumerated().filter { $0.element == nil }.map { "\($0.offset + 1)" }
        if !unchosen.isEmpty {
            out.reason = "no rule qualified on the training part of fold\(unchosen.count == 1 ? "" : "s") \(unchosen.joined(separator: ", ")) of \(folds): the rule is not stable enough over these cases to be shown better than the current route, so nothing is proposed"
        } else if let claim = verdict.claim {
            if out.cascade, Verdict(crossFit.outcomes, current: routes.sides[1].device, margin: margin, qualityFloor: quality).claim == nil {
                out.reason = "the rule's gain is the cascade's: on held-out folds it is not shown as good as the cascade alone and cheaper, or better at no more cost, so the rule is not supported by these cases (the cascade alone is printed below)"
                return out
            }
            out.proposed = true
            out.reason = claim
        } else {
            out.reason = verdict.shortfall(margin: margin)
        }
        return out
    }

    /// The config in force with version + 1: the learned rule, the device order as the feature's priority (models
    /// the run did not measure kept behind it), the routing block it simulated and, with the cascade, a fallback on
    /// failed checks.
    func proposedDocument(
        _ base: HybridConfigDocument, feature: String, runID: String, rule: InputRule, cascade: Bool, tiers: [String], now: Date
    ) -> HybridConfigDocument {
        var document = base
        document.version = base.version + 1
        guard var config = base.features[feature] else { return document }
        config.priority = tiers + config.priority.filter { !tiers.contains($0) }
        config.inputRules = [rule]
        // The routing block is written out as simulated (every error kind, the timeout), as `recommend` writes it, so
        // neither the document's defaults nor the app's can make the router walk otherwise; the cascade adds a
        // fallback on failed checks.
        let fallback = policy.floors(for: feature, config: config).fallback
        let conditions = FallbackCondition.normalized(cascade ? fallback + [.adherence] : fallback)
        config.routing = ReplayPolicy.routingConfig(for: ReplayPolicy.simulated(feature: feature, document: base, conditions: conditions), feature: config)
        document.features[feature] = config
        document.provenance = Provenance(producedBy: producedBy, evalRun: runID, createdAt: ISO8601DateFormatter().string(from: now))
        document.description = "Recommended by \(producedBy) from version \(base.version) and eval run \(runID): \(feature) routes \(rule.plainWords)."
        return document
    }

    static func points(_ share: Double) -> String { String(format: "%.1f points of adherence", share * 100) }
}

extension InputRuleLearner {
    /// The chosen rule's own figures on every case. The rule shipped is fitted on all cases, so it does at least as
    /// well as the cross-fitted procedure (fitted on four fifths) and no better than its in-sample figures: the
    /// stated intervals span both (the zoo's honesty row: the cross-fitted interval alone held the realised
    /// adherence and cost in 76.5 % of experiments).
    func inSample(_ rule: RuleCandidate, routes: LearningRoutes) -> RouteFigures {
        let side = routes.sides[rule.cascade ? 1 : 0]
        return RouteFigures(name: "chosen rule on all cases", side.device.picking(side.cloud, where: rule.selected), configuration: bootstrap)
    }

    /// Mean adherence and cost per request of routing `cases` by `rule` (its requests to the cloud order, the rest
    /// to the device order, with the cascade when `cascade`) and of all-cloud: what a proposal realises on fresh
    /// cases (the calibration zoo's honesty and power rows).
    package static func realised(
        _ rule: InputRule, cascade: Bool, on cases: InputCaseTable
    ) -> (adherence: Double, cost: Double, allCloudAdherence: Double, allCloudCost: Double) {
        let routes = LearningRoutes(cases, current: [cases.tiers.count - 1], checksFallback: false)
        let side = routes.sides[cascade ? 1 : 0]
        let outcome = side.device.picking(side.cloud, where: cases.features.map { rule.holds($0, labels: [:]) })
        let cloud = routes.baselines[2].outcomes
        return (
            RuleSelection.mean(outcome.adherence), RuleSelection.mean(outcome.cost), RuleSelection.mean(cloud.adherence),
            RuleSelection.mean(cloud.cost)
        )
    }
}

extension InputRuleLearner {
    /// The cost–quality curve alone (no search, no cross-fit), for `hybrid report`: nil when the route has fewer
    /// than two tiers on the same cases, a case cannot be measured, or no feature varies.
    package func curve(
        table: RunOutcomeTable, document: HybridConfigDocument, features: [String: InputFeatures]
    ) -> CostQualityCurve? {
        guard let config = document.features[table.feature] else { return nil }
        let tiers = Self.tiers(config.priority.filter { table.modelIDs.contains($0) }, table: table, document: document)
        guard let cases = try? InputCaseTable.build(table, variant: config.defaultVariant, tiers: tiers, features: features) else { return nil }
        let routes = LearningRoutes(cases, current: config.priority.compactMap { tiers.firstIndex(of: $0) }, checksFallback: false)
        return CurveBuilder(cases: cases, routes: routes).best()
    }
}
