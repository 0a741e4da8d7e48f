public import HybridStore
import HybridCore

/// Builds the report of a field run: the per-(arm, model) rows through the same ``ReportBuilder`` as offline runs
/// (each event becomes a one-off result), and the ``FieldAnalysis``: split check first, arm rows, arm vs control.
public struct FieldReportBuilder: Sendable {
    /// The configured split: arm name → percentage (the remainder is `default`); empty when unknown.
    public var percentages: [String: Double]
    /// The control group; nil picks `default` when it has a share, else the first arm by name.
    public var control: String?
    /// Statistical settings (α, power; the bootstrap's seed and level). Field comparisons use 1,000 resamples.
    public var options: ReportOptions

    /// A builder; see the properties.
    public init(percentages: [String: Double], control: String? = nil, options: ReportOptions = ReportOptions()) {
        self.percentages = percentages
        self.control = control
        self.options = options
    }

    /// The whole report of `runID`.
    public func build(store: SQLiteFieldEventStore, run: RunRecord?, runID: String) async throws -> RunReport {
        let events = try await store.events(run: runID)
        return build(runID: runID, run: run, events: events)
    }

    /// The report of `events` (all of one field run).
    public func build(runID: String, run: RunRecord?, events: [FieldEventRecord]) -> RunReport {
        let results = events.map { Self.result(of: $0, runID: runID) }
        var report = ReportBuilder(options: options).build(runID: runID, run: run, results: results)
        if let first = events.first {
            report.field = analysis(feature: first.feature, configVersion: first.configVersion, events: events)
        }
        return report
    }

    /// The field analysis alone.
    public func analysis(feature: String, configVersion: Int, events: [FieldEventRecord]) -> FieldAnalysis {
        let groups = Dictionary(grouping: events) { $0.rolloutArm ?? "default" }
        let arms = groups.keys.sorted().map { FieldArmFigures(name: $0, events: groups[$0] ?? []) }
        let installs = Dictionary(uniqueKeysWithValues: arms.map { ($0.name, $0.installs.count) })
        let srm = percentages.isEmpty ? nil : SampleRatioMismatch(observed: installs, expectedPercent: percentages)
        let reportable = srm.map { !$0.mismatch } ?? false
        let controlName = chooseControl(arms.map(\.name))
        var comparisons: [FieldComparison] = []
        if let control = arms.first(where: { $0.name == controlName }) {
            for arm in arms where arm.name != controlName {
                comparisons += FieldComparisons(options: options).compare(arm, control)
            }
        }
        comparisons = Self.adjusted(comparisons, alpha: options.alpha, reportable: reportable)
        return FieldAnalysis(
            feature: feature, configVersion: configVersion, control: controlName, sampleRatio: srm,
            effectsReportable: reportable, arms: arms.map(\.summary), comparisons: comparisons,
            method: Self.method(reportable: reportable, srmKnown: srm != nil))
    }

    private func chooseControl(_ names: [String]) -> String {
        if let control { return control }
        let configured = percentages.values.reduce(0, +)
        if names.contains("default") && (percentages.isEmpty || configured < 100) { return "default" }
        return percentages.keys.sorted().first { names.contains($0) } ?? names.first ?? "default"
    }

    /// Holm over the always-valid p-values, then the verdicts.
    static func adjusted(_ comparisons: [FieldComparison], alpha: Double, reportable: Bool) -> [FieldComparison] {
        let sequential = comparisons.indices.filter { comparisons[$0].sequentialPValue != nil }
        let adjusted = HolmCorrection.adjustedPValues(sequential.map { comparisons[$0].sequentialPValue ?? 1 })
        var out = comparisons
        for (position, index) in sequential.enumerated() {
            out[index].adjustedPValue = adjusted[position]
        }
        for index in out.indices {
            out[index].verdict = verdict(out[index], alpha: alpha, reportable: reportable)
        }
        return out
    }

    private static func verdict(_ comparison: FieldComparison, alpha: Double, reportable: Bool) -> String {
        guard reportable else { return "not reported (sample ratio mismatch or unknown split)" }
        guard let p = comparison.adjustedPValue else { return "descriptive" }
        guard p < alpha else { return "no detectable difference" }
        // Higher is better for adherence only; lower is better for rates of trouble and for latency.
        let higherIsBetter = comparison.metric == "adherence"
        return (comparison.difference > 0) == higherIsBetter ? "better" : "worse"
    }

    private static func method(reportable: Bool, srmKnown: Bool) -> String {
        var text = "Arms are independent installs: Newcombe hybrid-score intervals for rates, a seeded two-sample "
            + "bootstrap for latency. Effects are claimed only on the mixture SPRT's always-valid p-values "
            + "(Johari et al. 2022; τ = 0.05 for rates, half the pooled SD for means), Holm-adjusted, so the report "
            + "may be read after every upload without inflating false positives."
        if !srmKnown {
            text += " The configured split is unknown (pass --rollout-config), so no effect is reported."
        } else if !reportable {
            text += " The sample-ratio-mismatch check failed (p < 0.001): the split is broken and no effect is reported."
        }
        return text
    }

    /// One event as a one-off result, so the offline report model gives the per-(arm, model) rows.
    static func result(of event: FieldEventRecord, runID: String) -> ResultRecord {
        let model = event.servedBy ?? "none"
        let failed = event.outcome == "failed" || event.outcome == "declined"
        return ResultRecord(
            key: ResultKey(
                runID: runID, caseID: event.eventID, armID: "\(event.rolloutArm ?? "default")/\(event.variant)@\(model)",
                repeatIndex: 0),
            feature: event.feature, promptVariant: event.variant, modelID: model,
            tier: event.servedTier.flatMap(ModelTier.init(rawValue:)) ?? .thirdParty, renderedPromptHash: "",
            configVersion: event.configVersion, configHash: event.configHash, rawOutput: nil,
            usage: TokenUsage(
                promptTokens: event.inputTokens, completionTokens: event.outputTokens, isEstimated: event.tokensEstimated),
            timings: ResultTimings(ttftMs: event.ttftMs, totalMs: event.latencyMs), costUSD: event.costUSD,
            constraints: event.checksTotal > 0 ? [ConstraintOutcome(name: "checks", passed: event.failedChecks.isEmpty)] : [],
            error: failed ? ResultError(kind: event.errorKind ?? event.outcome, message: event.outcome) : nil,
            cacheHit: event.cacheHit, completedAt: event.occurredAt)
    }
}
