public import Foundation
public import HybridConfig
public import HybridReport
package import HybridStore

/// The decision rule of a staged rollout, without I/O: from the plan, the state and the field analysis of the
/// stage's events, one of hold, advance and roll back, with the figures behind it.
///
/// Rules, in order: nothing while the sample ratio check fails (a broken split biases every figure); roll back when
/// any guardrail's always-valid interval lies wholly beyond its tolerance on the harmful side (at any stage, at
/// any look); hold until the stage has lasted `minStageHours` and both the arm and the control have
/// `minInstallsPerArm` installs; then advance. A guardrail is judged once both groups have 20 installs (below that
/// the plug-in variances are too rough for the test's guarantee).
///
/// Calibration: each guardrail's test at each judged stage (every stage below 100 %, where a control remains) runs
/// at α / (judged stages × guardrails), the mixture SPRT is valid at every look, and its interval is intersected
/// over the stage's looks (a running intersection of always-valid intervals is always valid), so a harmless change
/// is rolled back with probability at most α over the whole plan, however often `hybrid rollout` looks.
public struct RolloutController: Sendable {
    /// The plan judged by.
    package var plan: RolloutPlan
    /// The false-rollback rate allowed over the whole plan.
    public var alpha: Double
    /// Installs each group needs before a guardrail is judged.
    public static let minimumJudgedInstalls = 20

    /// A controller for `plan` at family-wise level `alpha`.
    package init(plan: RolloutPlan, alpha: Double = 0.05) {
        self.plan = plan
        self.alpha = alpha
    }

    /// The level of one guardrail's test at one stage.
    public var testAlpha: Double {
        let judgedStages = max(1, plan.stages.filter { $0 < 100 }.count)
        return alpha / Double(judgedStages * max(1, plan.guardrails.count))
    }

    /// What one look decides, and the running bounds it leaves for the next look of the stage.
    public struct Look: Sendable, Hashable {
        public var decision: RolloutDecision
        public var bounds: [String: Double]
    }

    /// The look at `analysis` (the stage's events; nil when there are none yet) at `now`.
    public func look(state: RolloutState, analysis: FieldAnalysis?, now: Date) -> Look {
        let counts = analysis.map { installs(in: $0, arm: state.arm) } ?? (arm: 0, control: 0)
        func decide(_ action: RolloutDecision.Action, _ reason: String, _ figures: [GuardrailFigure] = [], stage: Int? = nil) -> RolloutDecision {
            let next = stage ?? state.stage
            let percentage = action == .rollBack ? 0 : (stage.map { plan.stages[$0] } ?? state.percentage)
            return RolloutDecision(
                at: now, action: action, stage: next, percentage: percentage, configVersion: state.stageVersion, reason: reason,
                guardrails: figures, armInstalls: counts.arm, controlInstalls: counts.control)
        }
        guard state.status == .running else { return Look(decision: decide(.hold, "the rollout is \(state.status.rawValue)"), bounds: state.bounds) }
        guard let analysis else {
            return Look(decision: decide(.hold, "no events of config v\(state.stageVersion) yet"), bounds: state.bounds)
        }
        guard analysis.effectsReportable else {
            let p = analysis.sampleRatio.map { String(format: "p = %.2g", $0.pValue) } ?? "split unknown"
            return Look(decision: decide(.hold, "sample ratio check failed (\(p)): holding until the split is fixed"), bounds: state.bounds)
        }
        let (figures, bounds) = judge(analysis, state: state, counts: counts)
        let breaches = figures.filter(\.breached)
        if !breaches.isEmpty {
            let names = breaches.map(\.metric).joined(separator: ", ")
            return Look(decision: decide(.rollBack, "\(names) shown worse than the control beyond tolerance", figures), bounds: bounds)
        }
        if let wait = missing(state: state, counts: counts, now: now) {
            return Look(decision: decide(.hold, wait, figures), bounds: bounds)
        }
        let next = state.stage + 1
        guard next < plan.stages.count else { return Look(decision: decide(.hold, "at the last stage", figures), bounds: bounds) }
        let done = "stage \(RolloutDecision.percent(state.percentage)) held its guardrails for its time and installs"
        return Look(decision: decide(.advance, done, figures, stage: next), bounds: bounds)
    }

    /// Installs with events of the stage in the arm and in the control.
    func installs(in analysis: FieldAnalysis, arm: String) -> (arm: Int, control: Int) {
        (analysis.arms.first { $0.name == arm }?.installs ?? 0, analysis.arms.first { $0.name == analysis.control }?.installs ?? 0)
    }

    /// Each guardrail's figure at this look, and the intervals intersected with the stage's earlier ones.
    func judge(
        _ analysis: FieldAnalysis, state: RolloutState, counts: (arm: Int, control: Int)
    ) -> ([GuardrailFigure], [String: Double]) {
        var bounds = state.bounds
        guard min(counts.arm, counts.control) >= Self.minimumJudgedInstalls else { return ([], bounds) }
        var figures: [GuardrailFigure] = []
        for guardrail in plan.guardrails {
            let metric = guardrail.metric.rawValue
            guard let c = analysis.comparisons.first(where: { $0.arm == state.arm && $0.metric == metric && $0.segment == nil }),
                let se = c.standardError, let tau = c.tau,
                let test = MixtureSPRT(difference: c.difference, variance: se * se, tau: tau, alpha: testAlpha)
            else { continue }
            let lower = max(test.lower, bounds[metric + ".lower"] ?? -.infinity)
            let upper = min(test.upper, bounds[metric + ".upper"] ?? .infinity)
            bounds[metric + ".lower"] = lower
            bounds[metric + ".upper"] = upper
            let breached = guardrail.metric.higherIsWorse ? lower > guardrail.tolerance : upper < -guardrail.tolerance
            figures.append(GuardrailFigure(
                metric: metric, difference: c.difference, lower: lower, upper: upper, tolerance: guardrail.tolerance, breached: breached))
        }
        return (figures, bounds)
    }

    /// What the stage still needs before it may end: time, then installs; nil when it has both.
    func missing(state: RolloutState, counts: (arm: Int, control: Int), now: Date) -> String? {
        let hours = now.timeIntervalSince(state.stageStartedAt) / 3_600
        if hours < plan.minStageHours {
            return String(format: "stage has run %.1f h of %.1f h", hours, plan.minStageHours)
        }
        let arm = max(0, plan.minInstallsPerArm - counts.arm)
        let control = max(0, plan.minInstallsPerArm - counts.control)
        guard arm + control > 0 else { return nil }
        return "needs \(arm) more installs in the arm and \(control) in the control (minimum \(plan.minInstallsPerArm) each)"
    }

    /// The field analysis of one stage's events (nil when there are none): the arm at the stage's percentage against
    /// the installs outside it. No pre-period covariate: earlier stages treated some of the installs, so it would
    /// not be available to both groups alike.
    package static func stageAnalysis(_ events: [FieldEventRecord], state: RolloutState) -> FieldAnalysis? {
        guard !events.isEmpty else { return nil }
        var builder = FieldReportBuilder(
            percentages: [state.arm: state.percentage], control: "default", minimumInstalls: minimumJudgedInstalls)
        builder.describesQuantiles = false
        return builder.analysis(feature: state.feature, configVersion: state.stageVersion, events: events)
    }

    /// `base` with the arm at `percentage`: version + 1, provenance and description naming the decision.
    public static func document(
        _ base: HybridConfigDocument, feature: String, arm: String, percentage: Double, decision: RolloutDecision, now: Date
    ) -> HybridConfigDocument {
        var document = base
        if let index = document.rollouts[feature]?.arms.firstIndex(where: { $0.name == arm }) {
            document.rollouts[feature]?.arms[index].percentage = percentage
        }
        document.version = base.version + 1
        document.provenance = Provenance(producedBy: "hybrid rollout", evalRun: nil, createdAt: ISO8601DateFormatter().string(from: now))
        document.description = "rollout of \(feature): \(decision.action.rawValue) arm \(arm) to \(RolloutDecision.percent(percentage)): \(decision.reason)"
        return document
    }
}

extension RolloutPlan.Metric {
    /// True when a higher value is worse (every metric but adherence).
    var higherIsWorse: Bool { self != .adherence }
}
