import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridRecommend
import HybridReport

/// A run of a feature whose route is a free device model then a priced cloud model, every case answered by both,
/// through the real `hybrid recommend --hedge-after auto` (`Recommender` with a default `HedgeSearch`): the grid of
/// delays over the device's stored latencies, the lowest p95 within the floors and the default caps, and the max-T
/// test over the delays that qualified. Latencies are seeded draws; every answer passes its checks.
public struct HedgeScenario: Sendable {
    /// The device's latencies; the cloud answers in 250 ms ± 10 % for $0.00027.
    public enum Device: Sendable {
        /// Nine answers in ten in 60 ms ± `fastJitter`, the rest in 2.5 s ± 20 % (each case drawn alone): a hedge
        /// between the modes cuts p95, so one should be proposed.
        case bimodal
        /// Every answer in 60 ms ± `fastJitter`: nothing to cut, so no hedge.
        case noTail
        /// As `noTail` but one case of the run (a random one) takes 2.5 s: one case shows nothing, so no hedge.
        case oneOutlier
    }

    public var name: String
    public var device: Device
    public var cases = 80
    /// How far a fast answer may lie from 60 ms, as a share: with 0.2 the fast mode reaches 72 ms, past the grid's
    /// 70 ms step, so the lowest-p95 delay may race fast requests and spend the share cap on them.
    public var fastJitter = 0.2
    /// Resamples of the max-T test (fewer in the reduced test); the seed is the default one, as `recommend` uses.
    public var resamples = BootstrapConfiguration.standard.resamples
    /// Dollars per cloud answer.
    public var cloudCost = 0.000_27
    /// The power the row must reach; nil for none.
    public var powerTarget: Double?

    /// A scenario; see the properties for the rest.
    public init(name: String, device: Device, cases: Int = 80) {
        self.name = name
        self.device = device
        self.cases = cases
    }

    public var isNull: Bool { device != .bimodal }

    /// Experiment `seed`: a false decision (in words: a hedge on a null device, or a proposal beyond the default
    /// share or mean-cost cap), whether a hedge was proposed, and the anchor: whether the run has at least 5 slow
    /// cases, without which no one-sided test of the per-case signs can reach 5 % (2⁻⁴ = 0.0625), whatever the
    /// delay or the family.
    public func run(seed: UInt64) throws -> (falseDecision: String?, detected: Bool, anchor: Bool) {
        var recommender = Recommender()
        recommender.hedge = HedgeSearch()
        let (table, slow) = drawn(seed: seed)
        let simulator = RouteSimulator(table: table, bootstrap: BootstrapConfiguration(resamples: resamples))
        let recommendation = try recommender.evaluate(simulator: simulator, document: try document())
        guard let chosen = recommendation.hedge?.chosen else { return (nil, false, slow >= 5) }
        let proposal = "hedge after \(chosen.afterMs) ms (\(recommendation.hedge?.evidence ?? "no evidence"))"
        if let broken = capBroken(chosen) { return ("\(proposal) \(broken)", false, slow >= 5) }
        return (isNull ? proposal : nil, !isNull, slow >= 5)
    }

    /// The default cap a proposal breaks, judged on the scenario's own figures rather than the search's: the share
    /// raced above 15 %, or a mean extra cost above 15 % of one cloud answer per request.
    func capBroken(_ chosen: HedgeRecommendation.Candidate) -> String? {
        let share = chosen.result.hedge?.hedged.proportion ?? 0
        if share > HedgeSearch.defaultMaxHedgedShare { return "races \(share) of requests" }
        let cap = HedgeSearch.defaultMaxHedgedShare * cloudCost
        if chosen.extraCostPerRequestUSD > cap * (1 + 1e-9) { return "adds $\(chosen.extraCostPerRequestUSD) a request (cap $\(cap))" }
        return nil
    }

    /// One latency of the device for a case that is (or is not) in its slow mode.
    private func deviceLatency(slow: Bool, rng: inout SplitMix64) -> Double {
        slow ? 2_500 * (0.8 + 0.4 * rng.nextUnit()) : 60 * (1 - fastJitter + 2 * fastJitter * rng.nextUnit())
    }

    /// Every case on both models: the device per `device`, the cloud in 250 ms ± 10 %.
    func makeTable(seed: UInt64) -> RunOutcomeTable { drawn(seed: seed).table }

    /// The table of ``makeTable(seed:)`` and how many of its cases the device answered in its slow mode.
    func drawn(seed: UInt64) -> (table: RunOutcomeTable, slow: Int) {
        var slowCases = 0
        var rng = SplitMix64(seed: seed)
        let arms = [
            ArmDescriptor(id: "a@cloud", variant: "a", modelID: "cloud", tier: .privateCloud),
            ArmDescriptor(id: "a@local", variant: "a", modelID: "local", tier: .onDevice),
        ]
        let outlier = rng.nextIndex(below: cases)
        let outcomes: [[ArmOutcome?]] = (0..<cases).map { index in
            let slow = switch device {
            case .bimodal: rng.nextUnit() < 0.1
            case .noTail: false
            case .oneOutlier: index == outlier
            }
            if slow { slowCases += 1 }
            let local = deviceLatency(slow: slow, rng: &rng)
            let cloud = 250 * (0.9 + 0.2 * rng.nextUnit())
            return [
                ArmOutcome(adherent: true, totalMs: cloud, costUSD: cloudCost, scores: []),
                ArmOutcome(adherent: true, totalMs: local, costUSD: 0, scores: []),
            ]
        }
        let table = RunOutcomeTable(
            runID: "calibration-\(seed)", feature: "summarize", arms: arms, scorers: [],
            cases: (0..<cases).map { CaseKey(caseID: String(format: "case-%03d", $0), repeatIndex: 0) }, outcomes: outcomes)
        return (table, slowCases)
    }

    /// The config in force: `summarize` on `local`, then `cloud` on its errors.
    func document() throws -> HybridConfigDocument {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.models = [:]
        for (id, tier, price) in [("local", ModelTier.onDevice, 0.0), ("cloud", .privateCloud, 0.5)] {
            document.models[id] = ModelConfig(
                kind: .openAICompatible, baseURL: "https://models.example.com/v1", model: id, tier: tier,
                apiKeyEnv: tier == .onDevice ? nil : "CALIBRATION_KEY", pricing: ModelPricing(inputPerMillion: price, outputPerMillion: price),
                contextWindow: 8192, capabilities: .init(structuredOutput: true, streaming: true))
        }
        guard var feature = document.features["summarize"] else { throw CalibrationError("the bundled config has no summarize feature") }
        feature.variants = ["a": PromptVariant(template: "Summarize ({{input}})")]
        feature.defaultVariant = "a"
        feature.priority = ["local", "cloud"]
        feature.deadlineMs = nil
        document.features = ["summarize": feature]
        document.rollouts = [:]
        return document
    }
}
