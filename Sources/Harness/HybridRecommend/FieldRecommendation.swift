public import HybridConfig
import HybridConfigTools
public import HybridReport
public import Foundation

/// What `hybrid recommend FIELD_RUN` proposes for a rollout: promote an arm to 100 %, roll it back to 0 %, or
/// change nothing, with the figures that justify it.
public struct FieldRecommendation: Sendable, Hashable {
    /// The decision.
    public enum Action: Sendable, Hashable {
        /// Set this arm to 100 % and every other arm to 0 %.
        case promote(arm: String)
        /// Set this arm to 0 %.
        case rollBack(arm: String)
        /// No change, and why.
        case hold(reason: String)
    }

    /// The config the run was judged against.
    public var base: HybridConfigDocument
    /// The proposed config (version + 1, provenance and description naming the run and its figures); equal to
    /// `base` for ``Action/hold(reason:)``.
    public var document: HybridConfigDocument
    /// The decision.
    public var action: Action
    /// The figures behind it, one line each.
    public var evidence: [String]

    /// What would change, in `ConfigDiff`'s words.
    public var diff: String { ConfigDiff.render(from: base, to: document) }

    /// True when the proposed config differs from the base.
    public var changesRollout: Bool {
        if case .hold = action { return false }
        return true
    }
}

/// Turns a field run's ``FieldAnalysis`` into a rollout change under a policy's floors.
///
/// Rules, in order: no change while the split check has not passed (a broken split biases every figure); an arm
/// that is significantly worse than the control on adherence, error rate, fallback rate or mean latency
/// (always-valid p, Holm-adjusted) is rolled back to 0 %; an arm worse on nothing, meeting the feature's floors
/// (adherence lower bound, p95 latency, cost per 1,000) and shown better than the control (adherence better, or
/// cost or mean latency better with adherence within the policy's margin) is promoted to 100 %; otherwise nothing
/// changes and the reason says what is missing.
public struct FieldRecommender: Sendable {
    /// The floors.
    public var policy: RecommendationPolicy
    /// Recorded in the proposed config's provenance.
    public var producedBy: String

    /// A recommender with `policy`'s floors.
    public init(policy: RecommendationPolicy = .standard, producedBy: String = "hybrid recommend (field run)") {
        self.policy = policy
        self.producedBy = producedBy
    }

    /// The recommendation for `analysis` of field run `runID` against `document`.
    public func recommend(
        document: HybridConfigDocument, analysis: FieldAnalysis, runID: String, now: Date = Date()
    ) throws(RecommendError) -> FieldRecommendation {
        let feature = analysis.feature
        guard let config = document.features[feature] else { throw .featureNotInConfig(feature: feature) }
        guard document.rollouts[feature] != nil else {
            return hold(document, "feature \(feature) has no rollout in config v\(document.version)")
        }
        guard analysis.effectsReportable else {
            let p = analysis.sampleRatio.map { String(format: "p = %.2g", $0.pValue) } ?? "split unknown"
            return hold(document, "sample ratio check did not pass (\(p)): no effect may be claimed")
        }
        let floors = policy.floors(for: feature, config: config)
        let candidates = analysis.arms.filter { $0.name != analysis.control && $0.name != "default" }
        for arm in candidates {
            let worse = analysis.comparisons(of: arm.name).filter { $0.verdict == "worse" }
            if !worse.isEmpty {
                return change(document, analysis, runID, now, .rollBack(arm: arm.name), worse.map(Self.line))
            }
        }
        var missing: [String] = []
        for arm in candidates {
            let comparisons = analysis.comparisons(of: arm.name)
            guard let claim = Self.shown(comparisons, adherenceMargin: floors.maxAdherenceDrop) else {
                missing.append("keep: \(arm.name) not shown better than \(analysis.control) on adherence, nor cheaper or faster with adherence within \(floors.maxAdherenceDrop) of it" + Self.reach(comparisons))
                continue
            }
            let failedFloors = Self.floorFailures(arm, floors)
            guard failedFloors.isEmpty else {
                missing.append("\(arm.name): " + failedFloors.joined(separator: "; "))
                continue
            }
            return change(document, analysis, runID, now, .promote(arm: arm.name), claim.map(Self.line) + Self.figures(arm))
        }
        return hold(document, missing.isEmpty ? "no arm besides the control" : missing.joined(separator: "; "))
    }

    private func hold(_ document: HybridConfigDocument, _ reason: String) -> FieldRecommendation {
        FieldRecommendation(base: document, document: document, action: .hold(reason: reason), evidence: [reason])
    }

    private func change(
        _ base: HybridConfigDocument, _ analysis: FieldAnalysis, _ runID: String, _ now: Date,
        _ action: FieldRecommendation.Action, _ evidence: [String]
    ) -> FieldRecommendation {
        var document = base
        let feature = analysis.feature
        for index in document.rollouts[feature]?.arms.indices ?? (0..<0) {
            guard let name = document.rollouts[feature]?.arms[index].name else { continue }
            switch action {
            case .promote(let arm): document.rollouts[feature]?.arms[index].percentage = name == arm ? 100 : 0
            case .rollBack(let arm) where name == arm: document.rollouts[feature]?.arms[index].percentage = 0
            default: break
            }
        }
        document.version = base.version + 1
        document.provenance = Provenance(
            producedBy: producedBy, evalRun: runID, createdAt: ISO8601DateFormatter().string(from: now))
        let verb: String
        switch action {
        case .promote(let arm): verb = "promote rollout arm \(arm) of \(feature) to 100 %"
        case .rollBack(let arm): verb = "roll back rollout arm \(arm) of \(feature) to 0 %"
        case .hold: verb = "no change"
        }
        document.description = "\(verb) from field run \(runID) (config v\(analysis.configVersion)): "
            + evidence.joined(separator: "; ")
        return FieldRecommendation(base: base, document: document, action: action, evidence: evidence)
    }

    /// The comparisons that show an arm better than the control: adherence better; or cost or mean latency better
    /// with adherence non-inferior (its always-valid interval's lower bound above −`adherenceMargin`). nil when
    /// neither is shown. The same rule as offline: an arm replaces the route in force only when it is better, or as
    /// good and cheaper or faster.
    static func shown(_ comparisons: [FieldComparison], adherenceMargin: Double) -> [FieldComparison]? {
        guard let adherence = comparisons.first(where: { $0.metric == "adherence" }) else { return nil }
        if adherence.verdict == "better" { return [adherence] }
        guard let lower = adherence.sequentialLower, lower >= -adherenceMargin,
            let cheaper = comparisons.first(where: { ["costPer1000USD", "latencyMeanMs"].contains($0.metric) && $0.verdict == "better" })
        else { return nil }
        return [cheaper, adherence]
    }

    /// What the tests could find now: "; with 80 % power now: adherence ±0.041, …" from each comparison's MDE, and the
    /// installs per arm at which the adherence difference seen would be found, were it real.
    static func reach(_ comparisons: [FieldComparison]) -> String {
        let mdes = comparisons.compactMap { c in c.minimumDetectableEffect.map { String(format: "%@ ±%.3g", c.metric, $0) } }
        guard !mdes.isEmpty else { return "" }
        var text = "; with 80 % power the tests find now " + mdes.joined(separator: ", ")
        if let adherence = comparisons.first(where: { $0.metric == "adherence" }), let mde = adherence.minimumDetectableEffect,
            let installs = adherence.installs, abs(adherence.difference) > 1e-9, mde > abs(adherence.difference)
        {
            // The MDE shrinks about as 1/√n (the mixture's boundary grows only as √log n).
            let factor = pow(mde / abs(adherence.difference), 2)
            text += String(format: "; about %d installs per arm would find an adherence difference of %+.3f", Int((Double(min(installs.arm, installs.control)) * factor).rounded(.up)), adherence.difference)
        }
        return text
    }

    static func floorFailures(_ arm: FieldArmSummary, _ floors: FeatureFloors) -> [String] {
        var failures: [String] = []
        if let minimum = floors.minAdherenceLower, let adherence = arm.adherence, adherence.lower < minimum {
            failures.append(String(format: "adherence lower bound %.3f < %.3f", adherence.lower, minimum))
        }
        if let limit = floors.p95LatencyMs, let latency = arm.latency, latency.p95 > limit {
            failures.append(String(format: "p95 latency %.0f ms > %.0f ms", latency.p95, limit))
        }
        if let limit = floors.maxCostPer1k, arm.costPer1000 > limit {
            failures.append(String(format: "cost per 1,000 $%.4f > $%.4f", arm.costPer1000, limit))
        }
        return failures
    }

    static func line(_ c: FieldComparison) -> String {
        String(
            format: "%@ %@ vs %@ %+.4f [%.4f, %.4f] (%@), always-valid [%.4f, %.4f], Holm p = %.3g",
            c.metric, c.arm, c.control, c.difference, c.lower, c.upper, c.intervalMethod, c.sequentialLower ?? .nan,
            c.sequentialUpper ?? .nan, c.adjustedPValue ?? .nan) + (c.decidedBy.map { "; decided by \($0)" } ?? "")
    }

    static func figures(_ arm: FieldArmSummary) -> [String] {
        var lines = ["\(arm.name): \(arm.events) events from \(arm.installs) installs"]
        if let adherence = arm.adherence {
            lines.append(String(format: "adherence %.3f [%.3f, %.3f]", adherence.rate, adherence.lower, adherence.upper))
        }
        if let latency = arm.latency { lines.append(String(format: "p95 latency %.0f ms", latency.p95)) }
        lines.append(String(format: "cost per 1,000 $%.4f", arm.costPer1000))
        return lines
    }
}
