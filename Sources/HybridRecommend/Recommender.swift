public import Foundation
public import HybridConfig
import HybridCore
public import HybridReport

/// Picks, per feature, the cheapest prompt variant and priority order that meets every floor of a policy, from
/// simulations over stored runs, and writes the result as the next config version.
///
/// Candidates are every ordered choice of up to `maxOrderLength` of the run's models that the privacy class
/// allows and that served at least once in the run, with each of the run's variants, plus the current route.
/// Each is simulated with the policy's fallback conditions. Floors: adherence (Wilson lower bound), quality drop
/// against the best single arm (paired bootstrap interval's upper bound), p95 latency, cost per 1,000, privacy.
/// Only conditions the router evaluates at run time are accepted (quality scores are refused), and the new config
/// carries the `routing` block the candidates were simulated with. Among the routes meeting all, the cheapest wins; ties go to lower p95, then the current route, then the longer
/// order (more fallbacks), then the name. When nothing qualifies the current route stays and the candidate failing
/// the fewest floors is reported with the figures that failed.
public struct Recommender: Sendable {
    /// Floors, budgets and fallback conditions candidates must meet.
    public var policy: RecommendationPolicy
    /// Resamples, seed and confidence of every interval.
    public var bootstrap: BootstrapConfiguration
    /// Longest priority order considered.
    public var maxOrderLength: Int
    /// Names the tool in `provenance.producedBy`.
    public var producedBy: String
    /// What a repeated case's checks reduce to before the adherence floor's interval (`--reducer`).
    public var reducer: RepeatReducer
    /// Whether and how to propose a hedge delay for each feature's route; nil: no hedge is proposed.
    public var hedge: HedgeSearch?

    /// Creates a recommender; orders of up to 3 models are considered by default.
    public init(
        policy: RecommendationPolicy = .standard, bootstrap: BootstrapConfiguration = .standard, maxOrderLength: Int = 3,
        producedBy: String = "hybrid recommend", reducer: RepeatReducer = .mean
    ) {
        self.policy = policy
        self.bootstrap = bootstrap
        self.maxOrderLength = max(1, maxOrderLength)
        self.producedBy = producedBy
        self.reducer = reducer
    }

    /// Recommends a route for the feature of each simulator's run and writes the next config version.
    ///
    /// A feature covered by several runs is judged on the first; the others are noted and ignored.
    public func recommend(
        document base: HybridConfigDocument, simulators: [RouteSimulator], now: Date = Date()
    ) throws(RecommendError) -> Recommendation {
        var decisions: [FeatureRecommendation] = []
        var notes: [String] = []
        for simulator in simulators {
            let feature = simulator.table.feature
            if decisions.contains(where: { $0.feature == feature }) {
                notes.append("run \(simulator.table.runID) also covers \(feature); ignored (one run per feature)")
                continue
            }
            decisions.append(try evaluate(simulator: simulator, document: base))
        }

        var document = base
        document.version = base.version + 1
        for decision in decisions where decision.decision == .change {
            guard let chosen = decision.chosen else { continue }
            // Models the run could not measure (no key on the eval machine, not in the run) stay behind the
            // recommended route as last-resort fallbacks, in their current order: an unmeasured model is no reason
            // to take away an app's fallback when the preferred model is unavailable on a device.
            let unmeasured = (base.features[decision.feature]?.priority ?? []).filter { id in
                !chosen.order.contains(id) && !decision.measuredModels.contains(id)
                    && base.models[id].map { decision.floors.privacy.allows(tier: $0.tier) } == true
            }
            document.features[decision.feature]?.priority = chosen.order + unmeasured
            document.features[decision.feature]?.defaultVariant = chosen.variant
        }
        // The routing block every decision was simulated with, so the router does what the figures promise.
        for decision in decisions {
            let simulated = ReplayPolicy.simulated(feature: decision.feature, document: base, conditions: decision.floors.fallback)
            guard let feature = base.features[decision.feature] else { continue }
            document.features[decision.feature]?.routing = ReplayPolicy.routingConfig(for: simulated, feature: feature)
            if let search = hedge, let afterMs = decision.hedge?.afterMs {
                document.features[decision.feature]?.routing?.hedge = search.config(afterMs: afterMs)
            }
        }
        let runs = simulators.map(\.table.runID)
        var seenRuns: [String] = []
        for run in runs where !seenRuns.contains(run) { seenRuns.append(run) }
        document.provenance = Provenance(
            producedBy: producedBy, evalRun: seenRuns.joined(separator: ", "),
            createdAt: ISO8601DateFormatter().string(from: now))
        document.description = Self.describe(decisions, runs: seenRuns, baseVersion: base.version)
        return Recommendation(base: base, document: document, features: decisions, notes: notes)
    }

    /// Refuses a run with no answered case on any arm, or none on the route in force (among its models the run
    /// measured): a recommendation from it would rest on nothing.
    static func requireAnswers(table: RunOutcomeTable, currentOrder: [String]) throws(RecommendError) {
        let answered = Set(table.arms.indices.filter { index in table.outcomes.contains { $0[index].map { !$0.failed } ?? false } }
            .map { table.arms[$0].modelID })
        guard !answered.isEmpty else { throw .nothingAnswered(runID: table.runID, feature: table.feature) }
        let current = currentOrder.filter { table.modelIDs.contains($0) }
        if !current.isEmpty && current.allSatisfy({ !answered.contains($0) }) {
            throw .currentRouteUnanswered(runID: table.runID, feature: table.feature, models: current)
        }
    }

    /// The decision for one feature: the run in `simulator`, judged against `document`'s config of that feature.
    public func evaluate(simulator: RouteSimulator, document: HybridConfigDocument) throws(RecommendError) -> FeatureRecommendation {
        let table = simulator.table
        let name = table.feature
        guard let config = document.features[name] else { throw .featureNotInConfig(feature: name) }
        let floors = policy.floors(for: name, config: config)
        try ReplayPolicy.checkRoutable(floors.fallback, feature: name)
        let routing = ReplayPolicy.simulated(feature: name, document: document, conditions: floors.fallback)
        var notes: [String] = []

        // Models the run measured that the config knows, the privacy class allows and that served at least once.
        var models: [String] = []
        for id in table.modelIDs {
            guard let model = document.models[id] else {
                notes.append("\(id) is in the run but not in the config; not considered")
                continue
            }
            guard floors.privacy.allows(tier: model.tier) else {
                notes.append("\(id) (\(model.tier.rawValue)) is beyond privacy class \(floors.privacy.rawValue); not considered")
                continue
            }
            let armIndices = table.arms.indices.filter { table.arms[$0].modelID == id }
            let served = table.outcomes.contains { row in armIndices.contains { row[$0].map { !$0.failed } ?? false } }
            guard served else {
                notes.append("\(id) failed on every case of the run (unavailable or erroring); not considered")
                continue
            }
            models.append(id)
        }
        try Self.requireAnswers(table: table, currentOrder: config.priority)
        let variants = table.variants.filter { config.variants[$0] != nil }
        for variant in table.variants where config.variants[variant] == nil {
            notes.append("variant \(variant) is in the run but not in the config; not considered")
        }

        // Candidates: every variant × every ordered choice of 1...maxOrderLength models, plus the current route.
        var routes: [(variant: String, order: [String])] = []
        for variant in variants {
            for order in Self.orders(of: models, maxLength: maxOrderLength) { routes.append((variant, order)) }
        }
        let currentRoute = (variant: config.defaultVariant, order: config.priority)
        let currentArmIDs = currentRoute.order.map { "\(currentRoute.variant)@\($0)" }
        let currentSimulatable = !currentRoute.order.isEmpty && currentArmIDs.allSatisfy { table.armIndex(of: $0) != nil }
        if !currentSimulatable {
            let missing = currentArmIDs.filter { table.armIndex(of: $0) == nil }
            notes.append("current route \(currentRoute.variant): \(currentRoute.order.joined(separator: " → ")) not simulated: no results for \(missing.joined(separator: ", "))")
        } else if !routes.contains(where: { $0.variant == currentRoute.variant && $0.order == currentRoute.order }) {
            routes.append(currentRoute)
        }

        var evaluations: [(candidate: CandidateEvaluation, trace: RouteTrace)] = []
        for route in routes {
            var policy = routing
            policy.order = route.order
            policy.variant = route.variant
            let (_, arms) = try simulator.resolve(policy)
            let trace = try simulator.trace(arms: arms, policy: policy)
            var candidate = CandidateEvaluation(
                variant: route.variant, order: route.order,
                isCurrent: route.variant == currentRoute.variant && route.order == currentRoute.order,
                adherence: TraceCases(trace, table: table, reducer: reducer).proportion(trace.adherent),
                p95LatencyMs: trace.p95, costPer1k: trace.meanCost * 1000)
            candidate.checks = basicChecks(candidate, floors: floors, document: document)
            evaluations.append((candidate, trace))
        }
        guard let count = evaluations.first?.trace.count else {
            throw .noCompleteCases(runID: table.runID, order: models)
        }

        // The best single arm on the quality scorer, among arms a candidate could use.
        let scorerName = floors.maxQualityDrop.map { $0.scorer ?? table.scorers.first ?? "" }
        let scorerIndex = scorerName.flatMap { table.scorers.firstIndex(of: $0) }
        var best: (id: String, scorer: String, mean: Double, trace: RouteTrace)?
        if let scorerName, let scorerIndex {
            for arm in table.arms where models.contains(arm.modelID) && variants.contains(arm.variant) {
                var policy = routing
                policy.order = [arm.id]
                guard let index = table.armIndex(of: arm.id), let trace = try? simulator.trace(arms: [index], policy: policy),
                    let mean = trace.meanQuality(scorerIndex)
                else { continue }
                if best == nil || mean > best!.mean { best = (arm.id, scorerName, mean, trace) }
            }
        } else if let scorerName {
            notes.append("quality floor scorer \(scorerName) has no scores in the run (scorers: \(table.scorers.joined(separator: ", ")))")
        }

        func withQuality(_ entry: (candidate: CandidateEvaluation, trace: RouteTrace)) -> CandidateEvaluation {
            judgeQuality(entry, floors: floors, scorer: scorerIndex, scorerName: scorerName, best: best, table: table)
        }

        // Cheapest first; the quality check (a bootstrap) runs only on candidates that pass everything else.
        let ranked = evaluations.sorted { Self.ranks($0.candidate, before: $1.candidate) }
        var chosen: (candidate: CandidateEvaluation, trace: RouteTrace)?
        var currentQualifies: (candidate: CandidateEvaluation, trace: RouteTrace)?
        var qualifying = 0
        for entry in ranked where entry.candidate.meetsFloors {
            let judged = withQuality(entry)
            guard judged.meetsFloors else { continue }
            qualifying += 1
            if chosen == nil { chosen = (judged, entry.trace) }
            if judged.isCurrent { currentQualifies = (judged, entry.trace) }
        }
        // A route that meets every floor is replaced only by one that is cheaper or faster beyond the run's noise:
        // two prompt variants that behave alike (an A/A) differ in cost and p95 by chance alone.
        if let pick = chosen, !pick.candidate.isCurrent, let current = currentQualifies,
            let reason = Self.withinNoise(pick.trace, current.trace, table: table, configuration: bootstrap)
        {
            notes.append("\(pick.candidate.label) ranks first but is not cheaper or faster than the current route "
                + "beyond the run's noise (\(reason)); the current route is kept")
            chosen = current
        }

        func full(_ entry: (candidate: CandidateEvaluation, trace: RouteTrace)) -> CandidateEvaluation {
            var candidate = entry.candidate.checks.contains(where: { $0.name == "quality" }) ? entry.candidate : withQuality(entry)
            var policy = routing
            policy.order = candidate.order
            policy.variant = candidate.variant
            candidate.result = SimulationResult(
                table: table, policy: policy, variant: candidate.variant, trace: entry.trace, configuration: bootstrap,
                reducer: reducer)
            return candidate
        }

        let currentEntry = evaluations.first { $0.candidate.isCurrent }
        let current = currentEntry.map(full)
        let decision: FeatureRecommendation.Decision
        var chosenEvaluation: CandidateEvaluation?
        var closest: CandidateEvaluation?
        if let chosen {
            chosenEvaluation = chosen.candidate.isCurrent ? current : full(chosen)
            decision = chosen.candidate.isCurrent ? .keepCurrentMeetsFloors : .change
        } else {
            decision = .keepNothingQualifies
            chosenEvaluation = current
            // Closest: fewest failed floors. The quality floor is judged (with the normal approximation, for ranking
            // only) on the candidates tied for the fewest other failures; the one reported is judged in full.
            let fewest = ranked.map(\.candidate.failedChecks.count).min() ?? 0
            var screening = self
            screening.bootstrap.maximumResampledCount = 0  // mean ± z·SE: O(n) per candidate, for ranking only
            let nearest = ranked.filter { $0.candidate.failedChecks.count == fewest }
                .map { entry -> (candidate: CandidateEvaluation, trace: RouteTrace) in
                    (screening.judgeQuality(entry, floors: floors, scorer: scorerIndex, scorerName: scorerName, best: best, table: table), entry.trace)
                }
                .min { a, b in
                    let fa = a.candidate.failedChecks.count, fb = b.candidate.failedChecks.count
                    return fa != fb ? fa < fb : Self.ranks(a.candidate, before: b.candidate)
                }
            closest = nearest.map { entry in
                var plain = entry
                plain.candidate.checks.removeAll { $0.name == "quality" }
                plain.candidate.qualityDrop = nil
                return full(plain)
            }
        }

        if let rollout = document.rollouts[name], decision == .change {
            let overriding = rollout.arms.filter { $0.variant != nil || $0.priority != nil }
            if !overriding.isEmpty {
                notes.append("rollout \(name) still overrides the variant or order for \(overriding.map { "\($0.name) (\($0.percentage)%)" }.joined(separator: ", ")) of installs; update or remove it to serve the recommendation to everyone")
            }
        }

        var recommendation = FeatureRecommendation(
            feature: name, runID: table.runID, count: count, floors: floors, decision: decision, chosen: chosenEvaluation,
            current: current, closest: closest, bestArm: best.map { ($0.id, $0.scorer, $0.mean) },
            candidatesSimulated: evaluations.count, candidatesQualifying: qualifying, notes: notes,
            measuredModels: models)
        if let search = hedge, let route = chosenEvaluation, route.order.count > 1 {
            var policy = routing
            policy.order = route.order
            policy.variant = route.variant
            recommendation.hedge = try proposeHedge(search, simulator: simulator, policy: policy, floors: floors)
        }
        return recommendation
    }

    // MARK: - Floors

    /// Adds the quality check: the paired interval of (best arm − candidate) must stay under the floor.
    private func judgeQuality(
        _ entry: (candidate: CandidateEvaluation, trace: RouteTrace), floors: FeatureFloors, scorer scorerIndex: Int?,
        scorerName: String?, best: (id: String, scorer: String, mean: Double, trace: RouteTrace)?, table: RunOutcomeTable
    ) -> CandidateEvaluation {
        var candidate = entry.candidate
        guard let floor = floors.maxQualityDrop else { return candidate }
        guard let scorerIndex, let best else {
            candidate.checks.append(FloorCheck(name: "quality", passed: false, detail: "scorer \(scorerName ?? "?") has no scores to compare"))
            return candidate
        }
        let (drop, pairs) = Self.qualityDrop(
            best: best.trace, candidate: entry.trace, scorer: scorerIndex, table: table, configuration: bootstrap)
        candidate.qualityDrop = drop
        if let drop, let upper = drop.upper {
            candidate.checks.append(FloorCheck(
                name: "quality", passed: upper <= floor.value,
                detail: String(format: "%@ drop vs %@ %.3f [95%% CI %.3f, %.3f], upper %@ %.3f",
                               best.scorer, best.id, drop.mean, drop.lower ?? .nan, upper, upper <= floor.value ? "≤" : ">", floor.value)))
        } else {
            candidate.checks.append(FloorCheck(
                name: "quality", passed: false, detail: "\(pairs) scored pairs with \(best.id); at least 2 are needed for an interval"))
        }
        return candidate
    }

    private func basicChecks(_ candidate: CandidateEvaluation, floors: FeatureFloors, document: HybridConfigDocument) -> [FloorCheck] {
        var checks: [FloorCheck] = []
        let beyond = candidate.order.filter { id in document.models[id].map { !floors.privacy.allows(tier: $0.tier) } ?? true }
        if !beyond.isEmpty {
            checks.append(FloorCheck(name: "privacy", passed: false, detail: "\(beyond.joined(separator: ", ")) not allowed under \(floors.privacy.rawValue)"))
        }
        if let minimum = floors.minAdherenceLower {
            let lower = candidate.adherence.lower
            checks.append(FloorCheck(
                name: "adherence", passed: lower >= minimum,
                detail: "\(candidate.adherence); Wilson lower \(ProportionEstimate.percent(lower)) \(lower >= minimum ? "≥" : "<") \(ProportionEstimate.percent(minimum))"))
        }
        if let slo = floors.p95LatencyMs {
            let ok = candidate.p95LatencyMs <= slo
            checks.append(FloorCheck(
                name: "p95 latency", passed: ok,
                detail: "\(SimulationResult.ms(candidate.p95LatencyMs)) \(ok ? "≤" : ">") \(SimulationResult.ms(slo))"))
        }
        if let cap = floors.maxCostPer1k {
            let ok = candidate.costPer1k <= cap
            checks.append(FloorCheck(
                name: "cost", passed: ok,
                detail: "\(SimulationResult.dollars(candidate.costPer1k))/1k \(ok ? "≤" : ">") \(SimulationResult.dollars(cap))/1k"))
        }
        return checks
    }

    /// Paired per-case drop best − candidate on one scorer, over cases both scored; repeats of a case are averaged
    /// first, so the case is the unit of the interval.
    static func qualityDrop(
        best: RouteTrace, candidate: RouteTrace, scorer: Int, table: RunOutcomeTable, configuration: BootstrapConfiguration
    ) -> (MeanEstimate?, Int) {
        let (first, second) = TraceCases.paired(
            (best, best.quality[scorer]), (candidate, candidate.quality[scorer]), table: table)
        guard let paired = PairedBootstrap(first: first, second: second, configuration: configuration) else { return (nil, first.count) }
        return (MeanEstimate(count: paired.count, mean: paired.meanDifference, lower: paired.lower, upper: paired.upper, method: paired.method), first.count)
    }

    /// nil when `candidate` is cheaper or faster than `current` per case with a paired 95 % interval below zero;
    /// else the two intervals, for the note that keeps the current route.
    static func withinNoise(
        _ candidate: RouteTrace, _ current: RouteTrace, table: RunOutcomeTable, configuration: BootstrapConfiguration
    ) -> String? {
        var parts: [String] = []
        for (name, scale, values) in [
            ("cost per 1k", 1_000.0, { (trace: RouteTrace) in trace.costUSD.map { Optional($0) } }),
            ("latency ms", 1.0, { (trace: RouteTrace) in trace.latencyMs.map { Optional($0) } }),
        ] {
            let (a, b) = TraceCases.paired((candidate, values(candidate)), (current, values(current)), table: table)
            guard let paired = PairedBootstrap(first: a, second: b, configuration: configuration) else { continue }
            if paired.upper < 0 { return nil }
            parts.append(String(
                format: "%@ %+.4g [%.4g, %.4g]", name, paired.meanDifference * scale, paired.lower * scale,
                paired.upper * scale))
        }
        return parts.joined(separator: "; ")
    }

    // MARK: - Ranking

    /// Cheaper first; then lower p95; then the current route; then more fallbacks; then by name.
    static func ranks(_ a: CandidateEvaluation, before b: CandidateEvaluation) -> Bool {
        if !nearlyEqual(a.costPer1k, b.costPer1k) { return a.costPer1k < b.costPer1k }
        if !nearlyEqual(a.p95LatencyMs, b.p95LatencyMs) { return a.p95LatencyMs < b.p95LatencyMs }
        if a.isCurrent != b.isCurrent { return a.isCurrent }
        if a.order.count != b.order.count { return a.order.count > b.order.count }
        return a.label < b.label
    }

    static func nearlyEqual(_ a: Double, _ b: Double) -> Bool {
        if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
        return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
    }

    /// Every ordered selection of 1...maxLength distinct elements.
    static func orders(of items: [String], maxLength: Int) -> [[String]] {
        var out: [[String]] = []
        func extend(_ prefix: [String]) {
            if !prefix.isEmpty { out.append(prefix) }
            guard prefix.count < maxLength else { return }
            for item in items where !prefix.contains(item) { extend(prefix + [item]) }
        }
        extend([])
        return out
    }

    // MARK: - Provenance

    static func describe(_ decisions: [FeatureRecommendation], runs: [String], baseVersion: Int) -> String {
        var parts = ["Recommended by hybrid recommend from version \(baseVersion) and eval run \(runs.joined(separator: ", "))."]
        for decision in decisions {
            switch decision.decision {
            case .change:
                guard let chosen = decision.chosen else { continue }
                let from = decision.current.map { " (was \($0.label))" } ?? ""
                parts.append("\(decision.feature): \(chosen.label)\(from), n = \(decision.count): \(RecommendationText.figures(chosen)).")
            case .keepCurrentMeetsFloors:
                parts.append("\(decision.feature): kept, meets every floor, n = \(decision.count).")
            case .keepNothingQualifies:
                let failed = decision.closest.map { c in c.failedChecks.map(\.name).joined(separator: ", ") } ?? "no candidate"
                parts.append("\(decision.feature): kept, no route meets every floor (closest fails \(failed)), n = \(decision.count).")
            }
        }
        return parts.joined(separator: " ")
    }
}
