import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridReport

/// A run of a feature on two tiers, a cheap device model and an expensive cloud model, that answered the same cases,
/// through the real `recommend --by-input` learner (`InputRuleLearner`), with the route in force cloud first (the
/// device reached on the cloud's errors). Each case is a request whose only varying feature is its length.
public struct InputRuleScenario: Sendable {
    /// What the experiment checks.
    public enum Kind: Sendable {
        /// The device fails 60 % of requests whatever their length: any rule proposed is a false decision.
        case null
        /// The device fails 90 % of requests over 1,500 characters (a third) and passes the rest: the length rule is
        /// found, and on fresh cases it is as good as all-cloud (within the margin) at ≤ 45 % of its cost.
        case power
        /// As `power`; found when, on fresh cases, the proposed rule's realised adherence and cost fall inside the
        /// 95 % intervals it stated.
        case honesty
    }

    public var name: String
    public var kind: Kind
    public var cases: Int
    /// The power the row must reach; nil for none.
    public var powerTarget: Double?
    /// Fresh cases drawn to measure what a proposal realises.
    public var freshCases = 4_000
    /// Dollars per request: device and cloud.
    public var deviceCost = 0.000_1
    public var cloudCost = 0.002
    public var cloudPass = 0.98
    public var margin = RecommendationPolicy.defaultAdherenceDrop
    /// Resamples of the learner's mean intervals (fewer in the reduced test).
    public var resamples = 2_000

    public init(name: String, kind: Kind, cases: Int) {
        self.name = name
        self.kind = kind
        self.cases = cases
    }

    public var isNull: Bool { kind == .null }

    /// Experiment `seed`: a false decision (in words), whether the truth's decision was reached, and whether a rule
    /// was proposed (the honesty row asks only of those).
    public func run(seed: UInt64) -> (falseDecision: String?, detected: Bool, proposed: Bool) {
        var rng = SplitMix64(seed: seed)
        let table = makeTable(count: cases, rng: &rng, runID: "calibration-\(seed)")
        let learner = InputRuleLearner(bootstrap: BootstrapConfiguration(resamples: resamples, seed: seed))
        let recommendation = learner.learn(table, current: [1, 0], margin: margin)
        guard recommendation.proposed, let rule = recommendation.rule, let stated = recommendation.learned else {
            return (nil, false, false)
        }
        if kind == .null { return ("proposed \(recommendation.ruleWords ?? "?")", false, true) }
        let fresh = makeTable(count: freshCases, rng: &rng, runID: "fresh-\(seed)")
        let realised = InputRuleLearner.realised(rule, cascade: recommendation.cascade, on: fresh)
        if kind == .honesty {
            let adherence = stated.adherence.lower <= realised.adherence && realised.adherence <= stated.adherence.upper
            let cost = (stated.costPerRequest.lower ?? .infinity) <= realised.cost && realised.cost <= (stated.costPerRequest.upper ?? -.infinity)
            return (nil, adherence && cost, true)
        }
        let lengthRule = Self.isLengthRule(rule)
        let asGood = realised.adherence >= realised.allCloudAdherence - margin
        let cheap = realised.cost <= 0.45 * realised.allCloudCost
        return (lengthRule ? nil : "proposed \(recommendation.ruleWords ?? "?")", lengthRule && asGood && cheap, true)
    }

    /// Whether `rule` is the length rule the power scenario plants, judged by what it does: it holds for the long
    /// inputs (1,600 characters and more) and not for the short ones (at most 1,400), probed away from the gap between
    /// them, where a threshold learned from 60 cases may fall anywhere.
    static func isLengthRule(_ rule: InputRule) -> Bool {
        func holds(_ characters: Int) -> Bool {
            rule.holds(InputFeatures(GenerationRequest(prompt: String(repeating: "word ", count: characters / 5))), labels: [:])
        }
        return [2_500, 4_000].allSatisfy(holds) && ![200, 600, 1_000].contains(where: holds)
    }

    /// `count` cases: their requests, and both tiers' answers.
    func makeTable(count: Int, rng: inout SplitMix64, runID: String) -> InputCaseTable {
        var features: [InputFeatures] = []
        var answers: [[[InputCaseTable.Answer]]] = []
        for _ in 0..<count {
            let long = rng.nextUnit() < 1.0 / 3
            let length = kind == .null ? 200 + Int(rng.nextUnit() * 3_800)
                : long ? 1_600 + Int(rng.nextUnit() * 2_400) : 200 + Int(rng.nextUnit() * 1_200)
            features.append(InputFeatures(GenerationRequest(prompt: String(repeating: "word ", count: length / 5))))
            let devicePass = switch kind {
            case .null: rng.nextUnit() >= 0.6
            case .power, .honesty: long ? rng.nextUnit() >= 0.9 : true
            }
            let device = InputCaseTable.Answer(adherent: devicePass, costUSD: deviceCost, latencyMs: 300 + 200 * rng.nextUnit())
            let cloud = InputCaseTable.Answer(adherent: rng.nextUnit() < cloudPass, costUSD: cloudCost, latencyMs: 800 + 600 * rng.nextUnit())
            answers.append([[device, cloud]])
        }
        return InputCaseTable(
            runID: runID, feature: "summarize", tiers: ["on-device", "cloud"],
            caseIDs: (0..<count).map { String(format: "case-%04d", $0) }, features: features, answers: answers)
    }
}
