import Foundation
public import HybridConfig
public import HybridRecommend
import HybridReport
import HybridStore

/// One seeded experiment of a ``FieldScenario``, read as a team reads it: the real field report after every look
/// (its look history kept as the store keeps it), `hybrid recommend FIELD_RUN` after every look, and, for segment
/// scenarios, `recommend --by deviceClass` with its own floor look history.
public struct FieldExperiment: Sendable {
    /// What one experiment decided over all its looks.
    public struct Outcome: Sendable, Hashable {
        /// Every decision made that the truth does not support: "look 3: latencyMeanMs worse", "look 5: roll back treat".
        public var falseDecisions: [String] = []
        /// Whether the decision a powered scenario should reach was reached at some look.
        public var detected = false
        /// The anchor, for a powered scenario: whether the fixed-horizon two-sided z-test at α 0.05 at the last look
        /// (the same per-install ratio, its delta-method standard error and CUPED, read once, the true metric alone)
        /// finds the effect in the true direction: the most power a valid single-look test has on the same data.
        public var anchorDetected: Bool?
        /// The same test with Holm over the report's judged metrics at α 0.05 (the family the report spends its α
        /// over), read once at the last look.
        public var anchorHolmDetected: Bool?
    }

    let scenario: FieldScenario
    let document: HybridConfigDocument
    let policy: RecommendationPolicy
    /// Whether the report caps heavy installs' weight; off only to show what the cap prevents.
    public var capsInstallWeights = true

    /// An experiment runner for `scenario`, judged against `document`'s rollout of `summarize` and `policy`'s floors.
    public init(_ scenario: FieldScenario, document: HybridConfigDocument, policy: RecommendationPolicy = .standard) {
        self.scenario = scenario
        var document = document
        document.rollouts["summarize"] = scenario.segmentsOnly
            ? nil : RolloutConfig(seed: "calibration", arms: [RolloutArm(name: "treat", percentage: 50)])
        self.document = document
        self.policy = policy
    }

    /// Experiment `seed`: every look through the report and `recommend`.
    public func run(seed: UInt64) throws -> Outcome {
        var population = FieldPopulation(scenario, seed: seed)
        let prePeriod = population.prePeriod()
        var builder = FieldReportBuilder(
            percentages: scenario.segmentsOnly ? ["default": 100] : ["treat": 50],
            segmentLabel: scenario.recommendsSegments ? "deviceClass" : nil)
        builder.describesQuantiles = false
        builder.capsInstallWeights = capsInstallWeights
        builder.design = scenario.design
        var events: [FieldEventRecord] = []
        var history: [FieldLook] = []
        var floorHistory: [FieldLook] = []
        var outcome = Outcome()
        let reads = scenario.days * scenario.looksPerDay
        for look in 0..<reads {
            events += population.events(look: look)
            guard let first = events.map(\.occurredAt).min() else { continue }
            // Under a design, each reading happens at its time since the run's first event (a team reading daily or
            // every 3 hours from the start); the planned looks are the readings at whole days.
            let now = first.addingTimeInterval(86_400 * Double(look + 1) / Double(scenario.looksPerDay))
            let (analysis, kept) = builder.analyzedLook(
                runID: "calibration", feature: "summarize", configVersion: 2, events: events, prePeriod: prePeriod,
                history: history, now: scenario.design == nil ? nil : now)
            if let kept { history.append(kept) }
            judgeVerdicts(analysis, look: look, into: &outcome)
            if !scenario.isNull, look == reads - 1 {
                outcome.anchorDetected = anchor(analysis, holm: false)
                outcome.anchorHolmDetected = anchor(analysis, holm: true)
            }
            if !scenario.segmentsOnly { try judgeRecommendation(analysis, look: look, into: &outcome) }
            if scenario.recommendsSegments {
                let segments = try FieldRecommender(policy: policy).recommendSegments(
                    document: document, analysis: analysis, runID: "calibration", events: events, history: floorHistory)
                if !segments.look.isEmpty {
                    floorHistory.append(FieldLook(runID: "floors", events: events.count, recordedAt: Date(), entries: segments.look))
                }
                for change in segments.changes {
                    outcome.falseDecisions.append("look \(look): override \(change.label)=\(change.value)")
                }
            }
        }
        return outcome
    }

    /// The fixed-horizon two-sided z-test at α 0.05 on the expected metric of the whole run, read once, in the true
    /// direction (see ``Outcome/anchorDetected``); with `holm`, Holm over the judged metrics' fixed-horizon p-values.
    private func anchor(_ analysis: FieldAnalysis, holm: Bool) -> Bool {
        let judged = analysis.comparisons.filter { $0.adjustedPValue != nil }
        guard let expected = scenario.expected,
            let index = judged.firstIndex(where: { $0.metric == expected.metric && $0.segment == nil }),
            let se = judged[index].standardError, se > 0
        else { return false }
        let z = judged[index].difference / se
        let direction = (z > 0) == (expected.metric == "adherence") ? "better" : "worse"
        let p = holm
            ? HolmCorrection.adjustedPValues(judged.map { NormalDistribution.twoSidedPValue(z: $0.difference / ($0.standardError ?? .nan)) })[index]
            : NormalDistribution.twoSidedPValue(z: z)
        return p < 0.05 && direction == expected.verdict
    }

    /// Every verdict of the whole run and its segments: the expected one counts as detected, any other is false.
    private func judgeVerdicts(_ analysis: FieldAnalysis, look: Int, into outcome: inout Outcome) {
        let all = analysis.comparisons + (analysis.segments ?? []).flatMap(\.comparisons)
        for comparison in all where comparison.verdict == "better" || comparison.verdict == "worse" {
            if let expected = scenario.expected, comparison.metric == expected.metric, comparison.verdict == expected.verdict {
                if comparison.segment == nil { outcome.detected = true }
                continue
            }
            if !scenario.isNull, comparison.metric != scenario.expected?.metric { continue }
            outcome.falseDecisions.append(
                "look \(look): \(comparison.segment.map { "\($0) " } ?? "")\(comparison.metric) \(comparison.verdict)")
        }
    }

    /// `hybrid recommend FIELD_RUN`: a promotion or a roll-back is false unless the truth calls for it.
    private func judgeRecommendation(_ analysis: FieldAnalysis, look: Int, into outcome: inout Outcome) throws {
        let recommendation = try FieldRecommender(policy: policy).recommend(
            document: document, analysis: analysis, runID: "calibration")
        switch recommendation.action {
        case .promote(let arm):
            if scenario.expected?.verdict == "better" {
                outcome.detected = true
            } else {
                outcome.falseDecisions.append("look \(look): promote \(arm)")
            }
        case .rollBack(let arm):
            if scenario.expected?.verdict == "worse" {
                outcome.detected = true
            } else {
                outcome.falseDecisions.append("look \(look): roll back \(arm)")
            }
        case .hold:
            break
        }
    }
}
