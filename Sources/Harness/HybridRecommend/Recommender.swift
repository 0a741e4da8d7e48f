public import Foundation
public import HybridConfig
import HybridCore
public import HybridReport

/// Recommends, per feature, a prompt variant and priority order from simulations over stored runs, and writes the
/// result as the next config version. The route in force stays unless a candidate is shown better than it.
///
/// Candidates are every ordered choice of up to `maxOrderLength` of the run's models that the privacy class
/// allows and that served at least once in the run, with each of the run's variants, plus the current route.
/// Each is simulated with the policy's fallback conditions. A candidate must meet the policy's floors (adherence
/// Wilson lower bound, p95 latency, cost per 1,000, privacy) and then show, against the **current route** and on the
/// case unit, that it is better (quality or adherence, as good on the other) or as good and cheaper or faster
/// (``SwitchEvidence``): one-sided paired sign-flip tests, Holm over every claim of every distinct candidate. Among
/// the candidates with a claim shown, the cheapest wins; ties go to lower p95, then the longer order (more
/// fallbacks), then the name. Otherwise the current route stays and the output says which claim came closest and
/// how many cases would show it. Only conditions the router evaluates at run time are accepted (quality scores are
/// refused), and the new config carries the `routing` block the candidates were simulated with.
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
    /// In named steps: the candidates (models and variants the run can speak for, every order of them and the route
    /// in force), their simulation, the judgement against the current route, the choice, then a hedge for it.
    public func evaluate(simulator: RouteSimulator, document: HybridConfigDocument) throws(RecommendError) -> FeatureRecommendation {
        let table = simulator.table
        guard let config = document.features[table.feature] else { throw .featureNotInConfig(feature: table.feature) }
        let floors = policy.floors(for: table.feature, config: config)
        try ReplayPolicy.checkRoutable(floors.fallback, feature: table.feature)
        let routing = ReplayPolicy.simulated(feature: table.feature, document: document, conditions: floors.fallback)
        var notes: [String] = []

        let models = eligibleModels(table: table, document: document, floors: floors, notes: &notes)
        try Self.requireAnswers(table: table, currentOrder: config.priority)
        let candidates = candidateRoutes(models: models, table: table, config: config, notes: &notes)
        let evaluations = try simulate(candidates.routes, current: candidates.current, simulator: simulator, routing: routing, floors: floors, document: document)
        guard let count = evaluations.first?.trace.count else { throw .noCompleteCases(runID: table.runID, order: models) }
        guard let currentEntry = evaluations.first(where: { $0.candidate.isCurrent }) else {
            notes.append("no evidence about the route in force, so nothing may replace it: keep")
            return FeatureRecommendation(
                feature: table.feature, runID: table.runID, count: count, floors: floors, decision: .keepNoEvidence,
                chosen: nil, current: nil, closest: nil, candidatesSimulated: evaluations.count,
                candidatesQualifying: evaluations.filter { $0.candidate.meetsFloors }.count, notes: notes,
                measuredModels: models)
        }

        let margins = qualityMargins(floors: floors, table: table, notes: &notes)
        let judged = judge(evaluations, current: currentEntry, margins: margins, table: table, document: document)
        var recommendation = decide(
            judged, evaluations: evaluations, current: currentEntry, floors: floors, margins: margins, table: table,
            routing: routing)
        recommendation.notes = notes + recommendation.notes + rolloutNotes(recommendation, document: document)
        recommendation.measuredModels = models
        if let search = hedge, let route = recommendation.chosen, route.order.count > 1 {
            var policy = routing
            policy.order = route.order
            policy.variant = route.variant
            recommendation.hedge = try proposeHedge(search, simulator: simulator, policy: policy, floors: floors)
        }
        return recommendation
    }

    /// Candidates, step 1: models the run measured that the config knows, the privacy class allows and that served
    /// at least once; each one left out is noted with why.
    private func eligibleModels(
        table: RunOutcomeTable, document: HybridConfigDocument, floors: FeatureFloors, notes: inout [String]
    ) -> [String] {
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
        return models
    }

    typealias Route = (variant: String, order: [String])

    /// Candidates, step 2: every variant the config knows × every ordered choice of 1...maxOrderLength `models`,
    /// plus the route in force as the run can see it (models it did not measure would be reached only behind the
    /// measured ones, and stay behind whatever is recommended).
    private func candidateRoutes(
        models: [String], table: RunOutcomeTable, config: FeatureConfig, notes: inout [String]
    ) -> (routes: [Route], current: Route) {
        for variant in table.variants where config.variants[variant] == nil {
            notes.append("variant \(variant) is in the run but not in the config; not considered")
        }
        var routes: [Route] = []
        for variant in table.variants where config.variants[variant] != nil {
            for order in Self.orders(of: models, maxLength: maxOrderLength) { routes.append((variant, order)) }
        }
        let unmeasured = config.priority.filter { !table.modelIDs.contains($0) }
        let current: Route = (config.defaultVariant, config.priority.filter { table.modelIDs.contains($0) })
        if !unmeasured.isEmpty && !current.order.isEmpty {
            notes.append("the current route is judged without \(unmeasured.joined(separator: ", ")) (not in the run)")
        }
        let currentArmIDs = current.order.map { "\(current.variant)@\($0)" }
        let missing = currentArmIDs.filter { table.armIndex(of: $0) == nil }
        if current.order.isEmpty || !missing.isEmpty {
            notes.append("current route \(current.variant): \(current.order.joined(separator: " → ")) not simulated: no results for \(missing.joined(separator: ", "))")
        } else if !routes.contains(where: { $0.variant == current.variant && $0.order == current.order }) {
            routes.append(current)
        }
        return (routes, current)
    }

    /// Simulates every route under the routing rules the router will use and checks it against the floors.
    private func simulate(
        _ routes: [Route], current: Route, simulator: RouteSimulator, routing: ReplayPolicy, floors: FeatureFloors,
        document: HybridConfigDocument
    ) throws(RecommendError) -> [Entry] {
        var evaluations: [Entry] = []
        for route in routes {
            var policy = routing
            policy.order = route.order
            policy.variant = route.variant
            let (_, arms) = try simulator.resolve(policy)
            let trace = try simulator.trace(arms: arms, policy: policy)
            var candidate = CandidateEvaluation(
                variant: route.variant, order: route.order,
                isCurrent: route.variant == current.variant && route.order == current.order,
                adherence: TraceCases(trace, table: simulator.table, reducer: reducer).proportion(trace.adherent),
                p95LatencyMs: trace.p95, costPer1k: trace.meanCost * 1000)
            candidate.checks = basicChecks(candidate, floors: floors, document: document)
            evaluations.append((candidate, trace))
        }
        return evaluations
    }

    /// A change a rollout would still override for some installs, said so.
    private func rolloutNotes(_ recommendation: FeatureRecommendation, document: HybridConfigDocument) -> [String] {
        guard recommendation.decision == .change, let rollout = document.rollouts[recommendation.feature] else { return [] }
        let overriding = rollout.arms.filter { $0.variant != nil || $0.priority != nil }
        guard !overriding.isEmpty else { return [] }
        return ["rollout \(recommendation.feature) still overrides the variant or order for \(overriding.map { "\($0.name) (\($0.percentage)%)" }.joined(separator: ", ")) of installs; update or remove it to serve the recommendation to everyone"]
    }

    typealias Entry = (candidate: CandidateEvaluation, trace: RouteTrace)

    /// The quality scorer and the non-inferiority margins: the policy's quality floor (its scorer, or the run's
    /// first) and its adherence margin.
    private func qualityMargins(floors: FeatureFloors, table: RunOutcomeTable, notes: inout [String]) -> SwitchEvidence.Margins {
        let scorerName = floors.maxQualityDrop.map { $0.scorer ?? table.scorers.first ?? "" }
        let scorerIndex = scorerName.flatMap { table.scorers.firstIndex(of: $0) }
        if let scorerName, scorerIndex == nil {
            notes.append("quality scorer \(scorerName) has no scores in the run (scorers: \(table.scorers.joined(separator: ", "))); quality is not compared")
        }
        return SwitchEvidence.Margins(
            scorer: scorerIndex, scorerName: scorerName ?? "quality", quality: floors.maxQualityDrop?.value ?? 0,
            adherence: floors.maxAdherenceDrop)
    }

    /// The candidates that meet every floor, one per distinct trace (routes that serve every case alike, as orders
    /// differing only in fallbacks that were never reached do, are one hypothesis, not several), each with its
    /// claims against the current route, Holm-adjusted together.
    struct Judged {
        /// Per distinct trace: the candidates sharing it.
        var groups: [[Entry]]
        var evidence: SwitchEvidence
    }

    private func judge(
        _ evaluations: [Entry], current: Entry, margins: SwitchEvidence.Margins, table: RunOutcomeTable,
        document: HybridConfigDocument
    ) -> Judged {
        var groups: [[Entry]] = []
        var signatures: [TraceSignature: Int] = [:]
        let currentSignature = TraceSignature(current.trace)
        for entry in evaluations where !entry.candidate.isCurrent && entry.candidate.meetsFloors {
            let signature = TraceSignature(entry.trace)
            guard signature != currentSignature else { continue }
            if let index = signatures[signature] {
                groups[index].append(entry)
            } else {
                signatures[signature] = groups.count
                groups.append([entry])
            }
        }
        let evidence = SwitchEvidence(
            candidates: groups.map { $0[0].trace }, current: current.trace, table: table, margins: margins,
            configuration: bootstrap,
            pricedCheaper: groups.map { Self.pricedCheaper($0[0].candidate.order, than: current.candidate.order, in: document) })
        return Judged(groups: groups, evidence: evidence)
    }

    /// Whether the config prices `order`'s first model below `current`'s (no higher per input or output token and
    /// lower per one of them): known before the run, so it may steer where the family spends α.
    static func pricedCheaper(_ order: [String], than current: [String], in document: HybridConfigDocument) -> Bool {
        guard let first = order.first, let theirs = current.first, first != theirs,
            let price = document.models[first]?.pricing, let reference = document.models[theirs]?.pricing
        else { return false }
        return price.inputPerMillion <= reference.inputPerMillion && price.outputPerMillion <= reference.outputPerMillion
            && (price.inputPerMillion < reference.inputPerMillion || price.outputPerMillion < reference.outputPerMillion)
    }

    /// Change to the best-ranked candidate with a claim shown; otherwise keep the current route, saying what
    /// evidence is missing (or, when no route meets every floor, which floors the closest one fails).
    private func decide(
        _ judged: Judged, evaluations: [Entry], current currentEntry: Entry, floors: FeatureFloors,
        margins: SwitchEvidence.Margins, table: RunOutcomeTable, routing: ReplayPolicy
    ) -> FeatureRecommendation {
        let alpha = 0.05
        var shown: [(entry: Entry, claim: SwitchEvidence.Claim)] = []
        for (index, group) in judged.groups.enumerated() {
            guard let claim = judged.evidence.shown(index, alpha: alpha) else { continue }
            shown += group.map { ($0, claim) }
        }
        let full = { (entry: Entry) in self.full(entry, current: currentEntry, margins: margins, table: table, routing: routing) }
        let current = full(currentEntry)
        let qualifying = evaluations.filter { $0.candidate.meetsFloors }.count
        var recommendation = FeatureRecommendation(
            feature: table.feature, runID: table.runID, count: currentEntry.trace.count, floors: floors,
            decision: .keepNoEvidence, chosen: current, current: current, closest: nil,
            candidatesSimulated: evaluations.count, candidatesQualifying: qualifying, notes: [])
        if let pick = shown.min(by: { Self.ranks($0.entry.candidate, before: $1.entry.candidate) }) {
            recommendation.decision = .change
            recommendation.chosen = full(pick.entry)
            recommendation.evidence = ["\(pick.entry.candidate.label) against the current route: \(pick.claim)"]
            return recommendation
        }
        if let closest = judged.evidence.closest(alpha: alpha) {
            let label = judged.groups[closest.candidate][0].candidate.label
            let needed = closest.casesNeeded.map { "about \($0) cases would show it if the observed difference is real" }
                ?? "the data point the other way"
            recommendation.evidence = [
                "keep: no candidate shown better or shown as good and cheaper than the current route",
                "closest: \(label), \(closest.claim); \(needed)",
            ]
            for check in current.failedChecks { recommendation.notes.append("the current route fails \(check)") }
            return recommendation
        }
        guard qualifying == 0 else {
            let others = evaluations.contains { !$0.candidate.isCurrent && $0.candidate.meetsFloors }
            recommendation.evidence = [others
                ? "keep: every other route meeting the floors serves every case as the current route does"
                : "keep: no other route meets every floor"]
            return recommendation
        }
        recommendation.decision = .keepNothingQualifies
        recommendation.closest = closestCandidate(evaluations, full: full)
        return recommendation
    }

    /// The candidate failing the fewest floors, cheapest among those, with its full figures.
    private func closestCandidate(_ evaluations: [Entry], full: (Entry) -> CandidateEvaluation) -> CandidateEvaluation? {
        evaluations.min { a, b in
            let fa = a.candidate.failedChecks.count, fb = b.candidate.failedChecks.count
            return fa != fb ? fa < fb : Self.ranks(a.candidate, before: b.candidate)
        }.map(full)
    }

    /// A candidate with its full figures and, beside the current route, its quality drop against it.
    private func full(
        _ entry: Entry, current: Entry, margins: SwitchEvidence.Margins, table: RunOutcomeTable, routing: ReplayPolicy
    ) -> CandidateEvaluation {
        var candidate = entry.candidate
        var policy = routing
        policy.order = candidate.order
        policy.variant = candidate.variant
        candidate.result = SimulationResult(
            table: table, policy: policy, variant: candidate.variant, trace: entry.trace, configuration: bootstrap,
            reducer: reducer)
        if let scorer = margins.scorer, !candidate.isCurrent {
            candidate.qualityDrop = Self.qualityDrop(
                reference: current.trace, candidate: entry.trace, scorer: scorer, table: table, configuration: bootstrap).0
        }
        return candidate
    }

    // MARK: - Floors

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

    /// Paired per-case drop reference − candidate on one scorer, over cases both scored; repeats of a case are
    /// averaged first, so the case is the unit of the interval.
    static func qualityDrop(
        reference: RouteTrace, candidate: RouteTrace, scorer: Int, table: RunOutcomeTable, configuration: BootstrapConfiguration
    ) -> (MeanEstimate?, Int) {
        let (first, second) = TraceCases.paired(
            (reference, reference.quality[scorer]), (candidate, candidate.quality[scorer]), table: table)
        guard let paired = PairedBootstrap(first: first, second: second, configuration: configuration) else { return (nil, first.count) }
        return (MeanEstimate(count: paired.count, mean: paired.meanDifference, lower: paired.lower, upper: paired.upper, method: paired.method), first.count)
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
            case .keepNoEvidence:
                parts.append("\(decision.feature): kept, no candidate shown better or shown as good and cheaper, n = \(decision.count).")
            case .keepNothingQualifies:
                let failed = decision.closest.map { c in c.failedChecks.map(\.name).joined(separator: ", ") } ?? "no candidate"
                parts.append("\(decision.feature): kept, no route meets every floor (closest fails \(failed)), n = \(decision.count).")
            }
        }
        return parts.joined(separator: " ")
    }
}
