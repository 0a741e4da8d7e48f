import Foundation
public import HybridConfig
import HybridCore
import HybridRouter
public import HybridStore
import HybridVirtualTime

/// The proof that the simulator predicts the router: every case of a stored run goes through the real `Router`
/// with replay models returning, per (case, arm), the stored text, usage, error and latency on a virtual clock,
/// and the router's choice is compared with the simulator's for the same config.
///
/// The policy replayed is the feature's in `document`: its priority order (models the run did not measure are in
/// the router's order but have no model, so the router skips them as the simulator leaves them out), its default
/// variant and its `routing` block over the document's defaults. Each case gets a fresh router, because the
/// simulator treats requests as independent (a rate limit's cooldown does not carry to the next case); the routers
/// of one run share one count of hedged requests, so `maxHedgedShare` binds across the run as in one app's router.
public struct RouterCheck: Sendable {
    /// The config whose feature is replayed.
    public var document: HybridConfigDocument
    /// The app labels the replayed router gets (its `eventLabels`): the config's conditions select the feature's
    /// override by them, in the router as in the simulation.
    public var labels: [String: String]
    /// The install id the replayed router runs as (percentile conditions bucket it).
    public var installId: String
    /// Each case's template variables, by case id, from the run's dataset: the router then renders the real prompt,
    /// so its context-window, truncation and minimum-input rules see what the eval sent. nil when the dataset is not
    /// at hand (every case gets the same short input, and those rules are not exercised; the report says so).
    public var inputs: [String: [String: String]]?

    /// A check of `document`'s routing, for an install with `labels`.
    public init(
        document: HybridConfigDocument, labels: [String: String] = [:], installId: String = "router-check",
        inputs: [String: [String: String]]? = nil
    ) {
        self.document = document
        self.labels = labels
        self.installId = installId
        self.inputs = inputs
    }

    /// Replays `run` (its `feature`, or its only one) and compares each case.
    public func run(store: any ResultStore, run runID: String, feature: String? = nil) async throws(RecommendError) -> RouterCheckReport {
        let table = try await RunOutcomeTable.load(from: store, run: runID, feature: feature)
        let replays = try await Self.loadReplays(store: store, run: runID, feature: table.feature)
        return try await compare(table: table, replays: replays)
    }

    /// Compares over an already loaded table and its replay outcomes, keyed by case then arm id.
    func compare(table: RunOutcomeTable, replays: [CaseKey: [String: ReplayOutcome]]) async throws(RecommendError) -> RouterCheckReport {
        let name = table.feature
        let (config, base) = try simulatedFeature(name)
        let variant = config.defaultVariant
        let measured = config.priority.filter { table.armIndex(of: "\(variant)@\($0)") != nil }
        guard !measured.isEmpty else {
            throw .unknownArm(arm: config.priority.map { "\(variant)@\($0)" }.joined(separator: ", "), known: table.arms.map(\.id))
        }
        var policy = base
        policy.order = measured
        policy.variant = variant
        var replayDocument = document
        replayDocument.rollouts[name] = nil  // every replayed request uses the default variant and order
        // Validated once here, not once per replayed case (each case gets a router of its own).
        do {
            replayDocument = try ConfigValidator.validate(replayDocument).document
        } catch {
            throw .invalidConfig(error.description)
        }
        var simulator = RouteSimulator(table: table, contextWindows: document.models.mapValues(\.contextWindow))
        let (_, arms) = try simulator.resolve(policy)
        let caseInputs = Dictionary(table.cases.map { ($0.caseID, input(for: $0.caseID, config: config)) }, uniquingKeysWith: { first, _ in first })
        // The feature's input rules, per case, on the same inputs the router gets (its `eventLabels` are the labels).
        try simulator.applyInputRules(
            config.inputRules ?? [], feature: config, name: name, variant: variant, inputs: caseInputs, labels: labels)
        // Only a per-request cost cap reads the estimate (the router, too, works it out only then).
        if policy.hedge?.maxExtraCostPerRequestUSD != nil {
            await simulator.estimateCallCosts(document: replayDocument, inputs: caseInputs, labels: labels, installId: installId)
        }
        // A run whose results were streamed is replayed twice: as `generate`, and as `stream` (first text at its
        // stored time to first token, which decides a progressive race).
        let streamed = table.outcomes.contains { row in row.contains { $0?.ttftMs != nil } }
        var cases: [RouterCheckReport.Case] = []
        var incomplete = 0
        for streams in streamed ? [false, true] : [false] {
            let trace = try simulator.trace(arms: arms, policy: policy, streams: streams)
            incomplete = trace.incompleteCases
            // One count of hedged requests across the run's routers: the share cap binds as in one app's router.
            let hedgeShare = HedgeShare()
            for (i, caseIndex) in trace.cases.enumerated() {
                let key = table.cases[caseIndex]
                let route = simulator.ruleRoutes[caseIndex]
                let model = { (position: Int) in table.arms[trace.arms[position]].modelID }
                let predicted = RouterCheckReport.Figures(
                    servedBy: trace.served[i].map(model), deliveredBy: trace.delivered[i].map(model),
                    adherent: trace.adherent[i], costUSD: trace.costUSD[i], latencyMs: trace.latencyMs[i], inputRule: route?.rule)
                let actual = await replay(
                    feature: name, config: config, variant: route?.variant ?? variant, outcomes: replays[key] ?? [:], document: replayDocument,
                    input: input(for: key.caseID, config: config), hedgeShare: hedgeShare, streams: streams)
                var item = RouterCheckReport.Case(key: key, simulated: predicted, router: actual.figures, attempts: actual.attempts)
                item.streamed = streams
                cases.append(item)
            }
        }
        var report = RouterCheckReport(
            runID: table.runID, feature: name, policy: policy, cases: cases, incompleteCases: incomplete)
        report.inputsReplayed = inputs != nil
        return report
    }

    /// The feature as the labels resolve it and the policy the simulator replays for it: its routing block in force,
    /// deadline and privacy class (order and variant left for the caller). The router resolves it itself.
    func simulatedFeature(_ name: String) throws(RecommendError) -> (config: FeatureConfig, policy: ReplayPolicy) {
        let resolved = document.resolved(labels: labels, installId: installId).document
        guard let config = resolved.features[name] else { throw .featureNotInConfig(feature: name) }
        return (config, ReplayPolicy.simulated(feature: name, document: resolved))
    }

    /// The case's template variables from the dataset, or the same short input for every case without one.
    private func input(for caseID: String, config: FeatureConfig) -> [String: String] {
        inputs?[caseID] ?? Dictionary(uniqueKeysWithValues: config.inputs.map { ($0, "replayed input") })
    }

    /// One case through a fresh router over replay models, on a virtual clock moved by a replay executor of its
    /// own: calls racing a deadline or each other (a hedge) end in the order of their stored latencies.
    private func replay(
        feature: String, config: FeatureConfig, variant: String, outcomes: [String: ReplayOutcome], document: HybridConfigDocument,
        input: [String: String], hedgeShare: HedgeShare, streams: Bool
    ) async -> (figures: RouterCheckReport.Figures, attempts: [RouteAttempt]) {
        let clock = VirtualClock()
        let executor = ReplayExecutor(clock: clock)
        let bill = ReplayBill()
        var models: [String: any LanguageModel] = [:]
        // The feature's models and every model a rule may send the case to.
        for id in Set(config.priority + (config.inputRules ?? []).flatMap(\.priority)) {
            guard let outcome = outcomes["\(variant)@\(id)"], let model = document.models[id] else { continue }
            models[id] = ReplayLanguageModel(
                id: id, tier: model.tier,
                capabilities: ModelCapabilities(streaming: true, structuredOutput: model.capabilities.structuredOutput, contextWindow: model.contextWindow),
                outcome: outcome, clock: clock, bill: bill, taskExecutor: executor)
        }
        let router = Router(
            unvalidated: .fixed(document), models: .models(models), installId: installId, clock: clock.routerClock(taskExecutor: executor), eventLabels: labels,
            hedgeShare: hedgeShare, onIncident: { _ in })
        let start = clock.now
        let result = await executor.run { () -> Result<RoutedResponse, RouterError> in
            do throws(RouterError) {
                guard streams else { return .success(try await router.generate(feature: feature, input: input)) }
                var completed: RoutedResponse?
                for try await event in router.stream(feature: feature, input: input) {
                    if case .completed(let routed) = event { completed = routed }
                }
                guard let completed else { return .failure(.cancelled(feature: feature, attempts: [])) }
                return .success(completed)
            } catch {
                return .failure(error)
            }
        }
        return Self.figures(of: result, costUSD: bill.usd, latency: clock.now - start)
    }

    /// What the router did with one replayed request, as the report compares it, and its attempts.
    private static func figures(
        of result: Result<RoutedResponse, RouterError>, costUSD: Double, latency: Duration
    ) -> (figures: RouterCheckReport.Figures, attempts: [RouteAttempt]) {
        let served = try? result.get()
        let attempts: [RouteAttempt]
        switch result {
        case .success(let routed): attempts = routed.attempts
        case .failure(let error): attempts = error.attempts
        }
        let figures = RouterCheckReport.Figures(
            servedBy: served.flatMap { $0.isFailing ? nil : $0.servedBy.id }, deliveredBy: served?.servedBy.id,
            adherent: served.map { !$0.isFailing && $0.failedChecks.isEmpty } ?? false, costUSD: costUSD,
            latencyMs: latency.milliseconds, inputRule: served?.inputRule)
        return (figures, attempts)
    }

    /// `document` with `feature` routed as `policy` says: its order (model ids or arm ids of one variant) as the
    /// priority, its variant as the default, its conditions as the routing block. Quality conditions are refused:
    /// no router can evaluate them.
    public static func applying(_ policy: ReplayPolicy, feature: String, to document: HybridConfigDocument) throws(RecommendError) -> HybridConfigDocument {
        try ReplayPolicy.checkRoutable(policy.fallback, feature: feature)
        guard var config = document.features[feature] else { throw .featureNotInConfig(feature: feature) }
        var variants = Set(policy.order.compactMap { $0.split(separator: "@", maxSplits: 1).count == 2 ? String($0.split(separator: "@")[0]) : nil })
        if let variant = policy.variant { variants.insert(variant) }
        guard variants.count <= 1 else { throw .ambiguousVariant(variants: variants.sorted()) }
        config.priority = policy.order.map { $0.split(separator: "@", maxSplits: 1).last.map(String.init) ?? $0 }
        if let variant = variants.first { config.defaultVariant = variant }
        config.routing = ReplayPolicy.routingConfig(for: policy, feature: config)
        var out = document
        out.features[feature] = config
        return out
    }

    /// Every stored result of `feature` in `run` as a replay outcome, keyed by case then arm id.
    static func loadReplays(store: any ResultStore, run: String, feature: String) async throws(RecommendError) -> [CaseKey: [String: ReplayOutcome]] {
        var out: [CaseKey: [String: ReplayOutcome]] = [:]
        do {
            try await store.forEachResult(run: run) { result in
                guard result.feature == feature else { return }
                out[CaseKey(caseID: result.key.caseID, repeatIndex: result.key.repeatIndex), default: [:]][result.key.armID] = ReplayOutcome(result)
            }
        } catch let error as StoreError {
            throw .store(error.description)
        } catch {
            throw .store(String(describing: error))
        }
        return out
    }
}
