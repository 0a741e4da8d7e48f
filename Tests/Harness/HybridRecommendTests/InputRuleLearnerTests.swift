import Foundation
import HybridCalibration
@testable import HybridConfig
import HybridCore
@testable import HybridRecommend
import HybridStore
import Testing

/// `recommend --by-input`'s learner: its folds, its refusals in plain words, the null and powered scenarios at a
/// small size, and the config it proposes.
@Suite struct InputRuleLearnerTests {
    static let models: [(id: String, tier: ModelTier, price: Double)] = [("phone", .onDevice, 0), ("cloud", .thirdParty, 2)]

    /// Case `i`'s input: every third case is long (2,000 characters), the rest short (400).
    static func input(_ i: Int) -> String { String(repeating: "word ", count: i % 3 == 0 ? 400 : 80) }

    /// The device fails the checks of every long input, the cloud passes everything at 20× the device's cost.
    static let arms = [
        ArmSpec(model: "phone", variant: "plain", tier: .onDevice, adherent: { $0 % 3 != 0 }, latencyMs: { _ in 300 }, costUSD: 0.0001),
        ArmSpec(model: "cloud", variant: "plain", tier: .thirdParty, latencyMs: { _ in 900 }, costUSD: 0.002),
    ]

    static func features(_ config: FeatureConfig, cases: Int) throws -> [String: InputFeatures] {
        var out: [String: InputFeatures] = [:]
        for i in 0..<cases { out[String(format: "c%02d", i)] = try config.inputFeatures(name: "summarize", input: ["input": input(i)]) }
        return out
    }

    @Test func crossFitFoldsPartitionTheCasesSeededAndStable() {
        let folds = CrossFit(count: 23, k: 5, seed: 1).folds
        #expect(folds.count == 5)
        #expect(folds.flatMap { $0 }.sorted() == Array(0..<23))
        #expect(Set(folds.map(\.count)).isSubset(of: [4, 5]))
        #expect(CrossFit(count: 23, k: 5, seed: 1).folds == folds)
        #expect(CrossFit(count: 23, k: 5, seed: 2).folds != folds)
    }

    @Test func oneTierProposesNothingAndSaysWhy() async throws {
        let store = try await StoredRunFixture.store(cases: 30, arms: [Self.arms[0]])
        let document = try StoredRunFixture.config(models: Self.models, priority: ["phone"], variants: ["plain"])
        let table = try await RunOutcomeTable.load(from: store, run: "run-1")
        let result = try InputRuleLearner().learn(
            table: table, document: document, features: Self.features(document.features["summarize"]!, cases: 30))
        #expect(result.refusal == .oneTier(runID: "run-1", feature: "summarize", models: ["phone"]))
        #expect(!result.proposed && result.document == nil)
        #expect(result.render().contains("only phone"))
    }

    @Test func casesOneTierDidNotAnswerAreNamed() throws {
        let arms = [
            ArmDescriptor(id: "plain@cloud", variant: "plain", modelID: "cloud", tier: .thirdParty),
            ArmDescriptor(id: "plain@phone", variant: "plain", modelID: "phone", tier: .onDevice),
        ]
        let cases = (0..<30).map { CaseKey(caseID: String(format: "c%02d", $0), repeatIndex: 0) }
        let outcomes: [[ArmOutcome?]] = cases.indices.map { i in
            [[3, 7].contains(i) ? nil : ArmOutcome(adherent: true, totalMs: 900, costUSD: 0.002, scores: []),
             ArmOutcome(adherent: true, totalMs: 300, costUSD: 0.0001, scores: [])]
        }
        let table = RunOutcomeTable(runID: "run-9", feature: "summarize", arms: arms, scorers: [], cases: cases, outcomes: outcomes)
        let document = try StoredRunFixture.config(models: Self.models, priority: ["phone", "cloud"], variants: ["plain"])
        let result = try InputRuleLearner().learn(
            table: table, document: document, features: Self.features(document.features["summarize"]!, cases: 30))
        #expect(result.refusal == .casesMissing(runID: "run-9", feature: "summarize", tier: "cloud", cases: ["c03", "c07"]))
        #expect(result.render().contains("cloud did not answer 2 cases of summarize that another tier answered (c03, c07)"))
    }

    /// A stored run where the device fails every long input: the length rule is proposed against a cloud-first
    /// route, and the config written validates with `features.summarize.inputRules` and version + 1.
    @Test func theProposedConfigCarriesTheRuleAndValidates() async throws {
        let store = try await StoredRunFixture.store(cases: 60, arms: Self.arms)
        let document = try StoredRunFixture.config(models: Self.models, priority: ["cloud", "phone"], variants: ["plain"])
        let table = try await RunOutcomeTable.load(from: store, run: "run-1")
        let learner = InputRuleLearner(bootstrap: .init(resamples: 500))
        let result = try learner.learn(
            table: table, document: document, features: Self.features(document.features["summarize"]!, cases: 60))
        #expect(result.proposed, "\(result.render())")
        let proposed = try #require(result.document)
        #expect(proposed.version == document.version + 1)
        let validated = try ConfigValidator.load(proposed.encodedJSON())
        let rules = try #require(validated.document.features["summarize"]?.inputRules)
        #expect(rules.count == 1)
        #expect(rules[0].priority == ["cloud", "phone"])
        #expect(validated.document.features["summarize"]?.priority == ["phone", "cloud"])
        #expect(rules[0].tests.allSatisfy { $0.atLeast != nil }, "\(rules[0].plainWords)")
        #expect(result.render().contains(rules[0].plainWords))
        // The whole gap recovered at a third sent to the cloud: the area is 1/6 below it and 2/3 after it.
        let curve = try #require(result.curve)
        #expect(abs((curve.averageGapRecovered ?? 0) - 5.0 / 6) < 0.01)
        #expect((curve.cloudShareFor50 ?? 1) <= 1.0 / 3 + 1e-9)
    }

    @Test func noFeatureRelatedToFailuresProposesNothing() {
        var scenario = InputRuleScenario(name: "null", kind: .null, cases: 60)
        scenario.resamples = 200
        for seed in UInt64(1)...3 { #expect(scenario.run(seed: seed).falseDecision == nil, "seed \(seed)") }
    }

    @Test func theLengthRuleIsFoundWhenTheDeviceFailsLongInputs() {
        var scenario = InputRuleScenario(name: "power", kind: .power, cases: 60)
        scenario.resamples = 200
        scenario.freshCases = 600
        let found = (UInt64(1)...3).filter { scenario.run(seed: $0).detected }.count
        #expect(found >= 2)
    }

    /// Long inputs fail on the device, short ones pass there; the cloud passes all. The device's quality score is
    /// `deviceQuality` on every answer, the cloud's 0.9.
    static func lengthTable(deviceQuality: Double) -> InputCaseTable {
        let cases = 60
        var features: [InputFeatures] = []
        var answers: [[[InputCaseTable.Answer]]] = []
        for i in 0..<cases {
            let long = i % 3 == 0
            features.append(InputFeatures(GenerationRequest(prompt: String(repeating: "word ", count: long ? 500 : 100 + i))))
            let device = InputCaseTable.Answer(adherent: !long, costUSD: 0.0001, latencyMs: 300, quality: deviceQuality)
            let cloud = InputCaseTable.Answer(adherent: true, costUSD: 0.002, latencyMs: 900, quality: 0.9)
            answers.append([[device, cloud]])
        }
        return InputCaseTable(
            runID: "q", feature: "summarize", tiers: ["phone", "cloud"], caseIDs: (0..<cases).map { "c\($0)" }, features: features,
            answers: answers)
    }

    @Test func theQualityFloorHoldsARuleBackAsRecommendDoes() {
        let learner = InputRuleLearner(bootstrap: .init(resamples: 200))
        let floor = (scorer: "token_f1", margin: 0.05)
        let same = learner.learn(Self.lengthTable(deviceQuality: 0.9), current: [1, 0], margin: 0.05, quality: floor)
        #expect(same.proposed, "\(same.render())")
        #expect(same.reason.contains("token_f1 within 0.05"), "\(same.reason)")
        let worse = learner.learn(Self.lengthTable(deviceQuality: 0.6), current: [1, 0], margin: 0.05, quality: floor)
        #expect(!worse.proposed, "\(worse.render())")
        #expect(worse.reason.contains("the policy's quality floor"), "\(worse.reason)")
    }
}
