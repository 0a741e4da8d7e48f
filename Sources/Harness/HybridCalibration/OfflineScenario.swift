import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridRecommend
import HybridReport

/// An offline eval as teams run one, through the real `hybrid recommend`: a dataset of cases, each run on every arm
/// (a prompt variant on a model) with repeats, on a stochastic model whose answers score 1 or 0 (every answer passes
/// its checks, so the adherence floor lets every route through and the decision rests on the comparison alone).
/// The route in force is variant `a` on model `local`.
public struct OfflineScenario: Sendable {
    /// The scenario's name in the calibration table.
    public var name: String
    /// Cases in the dataset and repeats of each.
    public var cases: Int
    public var repeats: Int
    /// The share of answers that score 0 on the current route; cases differ around it.
    public var failureRate = 0.3
    /// How much lower variant `b`'s failure rate is (0: the two variants are identical).
    public var improvement = 0.0
    /// A second model, `small`, that serves the same weights as `local` at a quarter of its price (another host):
    /// nine answers in ten are the same as `local`'s, the rest drawn alike. A candidate that is as good and cheaper.
    public var cheaperTwin = false
    /// The power the row must reach; nil for none.
    public var powerTarget: Double?

    /// A scenario; see the properties for the rest.
    public init(name: String, cases: Int, repeats: Int) {
        self.name = name
        self.cases = cases
        self.repeats = repeats
    }

    /// Whether the truth is "nothing is better, nothing is as good and cheaper".
    public var isNull: Bool { improvement == 0 && !cheaperTwin }

    /// Run `seed`: whether `recommend` changed the route, and to what, and the anchor: whether the claim the truth
    /// supports, tested alone at α as if it had been named before the run (quality within the 0.05 margin for the
    /// cheaper twin, better quality for variant `b`; the one-sided paired sign-flip test on cases, repeats averaged),
    /// is shown: the most power any valid choice among the candidates could have.
    public func run(seed: UInt64) throws -> (changed: Bool, to: String?, anchor: Bool) {
        let (table, scores) = drawn(seed: seed)
        let simulator = RouteSimulator(table: table)
        let recommendation = try Recommender().evaluate(simulator: simulator, document: try document())
        let anchor = anchorShown(scores)
        guard recommendation.decision == .change else { return (false, nil, anchor) }
        return (true, recommendation.chosen?.label, anchor)
    }

    /// The anchor's test on `scores` (arm → case → its repeats' scores; see ``run(seed:)``); false for a null scenario.
    func anchorShown(_ scores: [String: [String: [Double]]]) -> Bool {
        guard !isNull, let current = scores["a@local"], let candidate = scores[cheaperTwin ? "a@small" : "b@local"] else {
            return false
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }
        let margin = cheaperTwin ? 0.05 : 0
        let differences = current.keys.sorted().compactMap { id in
            candidate[id].map { mean($0) - mean(current[id] ?? []) + margin }
        }
        return (PairedSignFlipTest(differences: differences)?.greaterPValue ?? 1) < 0.05
    }

    private var models: [(id: String, price: Double)] {
        cheaperTwin ? [("local", 2), ("small", 0.5)] : [("local", 0)]
    }

    /// Every (case, repeat) on every arm: each case has its own difficulty, and each answer passes or fails at it.
    func makeTable(seed: UInt64) -> RunOutcomeTable { drawn(seed: seed).table }

    /// The table of ``makeTable(seed:)`` and each arm's scores by case, as drawn.
    func drawn(seed: UInt64) -> (table: RunOutcomeTable, scores: [String: [String: [Double]]]) {
        var scores: [String: [String: [Double]]] = [:]
        var rng = SplitMix64(seed: seed)
        let variants = cheaperTwin ? ["a"] : ["a", "b"]
        var arms: [ArmDescriptor] = []
        for model in models {
            for variant in variants {
                arms.append(ArmDescriptor(id: "\(variant)@\(model.id)", variant: variant, modelID: model.id, tier: .privateCloud))
            }
        }
        arms.sort()
        var keys: [CaseKey] = []
        var outcomes: [[ArmOutcome?]] = []
        for index in 0..<cases {
            // Cases differ in difficulty: a case's failure rate is spread ±50 % around the scenario's.
            let difficulty = min(1, max(0, failureRate * (0.5 + rng.nextUnit())))
            for repeatIndex in 0..<repeats {
                keys.append(CaseKey(caseID: String(format: "case-%03d", index), repeatIndex: repeatIndex))
                let localPassed = rng.nextUnit() >= difficulty
                let sameAnswer = rng.nextUnit() < 0.9
                outcomes.append(arms.map { arm in
                    let rate = arm.variant == "b" ? max(0, difficulty - improvement) : difficulty
                    let drawn = rng.nextUnit() >= rate
                    let passed = arm.modelID == "local" && arm.variant == "a" ? localPassed
                        : arm.modelID == "small" && sameAnswer ? localPassed : drawn
                    let price = models.first { $0.id == arm.modelID }?.price ?? 0
                    scores[arm.id, default: [:]][String(format: "case-%03d", index), default: []].append(passed ? 1 : 0)
                    return ArmOutcome(
                        adherent: true, totalMs: 400 * exp(0.3 * (rng.nextUnit() + rng.nextUnit() + rng.nextUnit() - 1.5)),
                        costUSD: price * 0.000_5, scores: [passed ? 1 : 0])
                })
            }
        }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        let table = RunOutcomeTable(
            runID: "calibration", feature: "summarize", arms: arms, scorers: ["quality"], cases: order.map { keys[$0] },
            outcomes: order.map { outcomes[$0] })
        return (table, scores)
    }

    /// The config in force: `summarize` on variant `a` of `local`, both variants with the same template.
    func document() throws -> HybridConfigDocument {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.models = [:]
        for model in models {
            document.models[model.id] = ModelConfig(
                kind: .openAICompatible, baseURL: "https://models.example.com/v1", model: model.id, tier: .privateCloud,
                apiKeyEnv: "CALIBRATION_KEY", pricing: ModelPricing(inputPerMillion: model.price, outputPerMillion: model.price),
                contextWindow: 8192, capabilities: .init(structuredOutput: true, streaming: true))
        }
        guard var feature = document.features["summarize"] else { throw CalibrationError("the bundled config has no summarize feature") }
        feature.variants = [:]
        for variant in ["a", "b"] { feature.variants[variant] = PromptVariant(template: "Summarize ({{input}})") }
        feature.defaultVariant = "a"
        feature.priority = ["local"]
        feature.deadlineMs = nil
        document.features = ["summarize": feature]
        document.rollouts = [:]
        return document
    }
}

/// A calibration scenario that could not be set up.
public struct CalibrationError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
