public import Foundation
public import HybridStore
import HybridCore

/// Builds the report of a field run: the per-(arm, model) rows through the same ``ReportBuilder`` as offline runs
/// (each event becomes a one-off result), and the ``FieldAnalysis``: split check first, arm rows, arm vs control.
///
/// The install is the unit: every arm-vs-control figure is a ratio of per-install sums with its delta-method
/// variance (CUPED-adjusted where installs have events from before the run's config version), tested with the
/// always-valid mSPRT on that variance and Holm-adjusted; latency quantiles get an install-level bootstrap.
public struct FieldReportBuilder: Sendable {
    /// The configured split: arm name → percentage (the remainder is `default`); empty when unknown.
    public var percentages: [String: Double]
    /// The control group; nil picks `default` when it has a share, else the first arm by name.
    public var control: String?
    /// Statistical settings (α, power; the bootstrap's seed and level). Field comparisons use 1,000 resamples.
    public var options: ReportOptions
    /// Installs each compared group needs before its comparisons are judged; below it they are shown only. A
    /// handful of installs gives a variance estimate too rough for any test to be trusted.
    public var minimumInstalls: Int
    /// A label of the events (`deviceClass`, `appVersion`, …) to split the report by; nil for none.
    public var segmentLabel: String?
    /// Compute the latency quantiles' install-level bootstrap intervals (descriptive; no verdict rests on them).
    /// Simulations that only read verdicts turn it off.
    public var describesQuantiles = true
    /// Cap each install's weight at three times its group's median install (see `FieldMetric.weightCap`). Off only
    /// in the simulation that shows what the cap prevents.
    public var capsInstallWeights = true
    /// A planned-horizon design (``FieldDesign``): group-sequential boundaries govern its planned looks, the
    /// always-valid test at a tenth of α every other reading; nil: the always-valid test at α governs every reading.
    public var design: FieldDesign?

    /// A builder; see the properties.
    public init(
        percentages: [String: Double], control: String? = nil, options: ReportOptions = ReportOptions(),
        minimumInstalls: Int = 20, segmentLabel: String? = nil
    ) {
        self.percentages = percentages
        self.control = control
        self.options = options
        self.minimumInstalls = max(2, minimumInstalls)
        self.segmentLabel = segmentLabel
    }

    /// The whole report of `runID`; events of the feature's earlier config versions are the pre-period, and the
    /// looks kept from earlier reports make its verdicts running ones. This report is kept as a look too.
    public func build(store: any FieldEventStore, run: RunRecord?, runID: String, now: Date = Date()) async throws -> RunReport {
        let events = try await store.events(run: runID)
        let prePeriod = try await store.eventsBefore(run: runID)
        let history = try await store.looks(run: runID)
        try checkDesign(runID: runID, history: history)
        let (report, look) = built(runID: runID, run: run, events: events, prePeriod: prePeriod, history: history, now: now)
        if let look { try await store.recordLook(look) }
        return report
    }

    /// Refuses a design other than the one the run's looks were taken under: its boundaries were spent on the
    /// stated plan, and a plan changed once the data are in is no plan. A run whose looks predate any planned
    /// design ran under the always-valid one.
    public func checkDesign(runID: String, history: [FieldLook]) throws(ReportError) {
        guard let first = history.first else { return }
        let requested = design?.summary(alpha: options.alpha) ?? Self.alwaysValidDesign
        let planned = history.first { $0.plan != nil }?.plan
        let kept = planned?.design ?? Self.alwaysValidDesign
        guard kept != requested else { return }
        throw .designChanged(run: runID, planned: kept, since: planned?.since ?? first.recordedAt, requested: requested)
    }

    /// How the design check names the default design.
    static let alwaysValidDesign = "the always-valid design (every reading decides by the mixture SPRT at α)"


    /// The report of `events` (all of one field run); `prePeriod` holds the same feature's events from before and
    /// `history` the looks kept from earlier reports of this run.
    public func build(
        runID: String, run: RunRecord?, events: [FieldEventRecord], prePeriod: [FieldEventRecord] = [],
        history: [FieldLook] = []
    ) -> RunReport {
        built(runID: runID, run: run, events: events, prePeriod: prePeriod, history: history, now: nil).report
    }

    /// The report and this look (each comparison's own always-valid p-value and interval), nil when it keeps nothing.
    private func built(
        runID: String, run: RunRecord?, events: [FieldEventRecord], prePeriod: [FieldEventRecord], history: [FieldLook],
        now: Date?
    ) -> (report: RunReport, look: FieldLook?) {
        let results = events.map { Self.result(of: $0, runID: runID) }
        var report = ReportBuilder(options: options).build(runID: runID, run: run, results: results)
        guard let first = events.first else { return (report, nil) }
        let analyzed = analyzedLook(
            runID: runID, feature: first.feature, configVersion: first.configVersion, events: events, prePeriod: prePeriod,
            history: history, now: now)
        report.field = analyzed.analysis
        return (report, analyzed.look)
    }

    /// What a look keeps of `comparisons`: those with an always-valid test that were judged (both groups at the
    /// minimum installs, the sample-ratio check passing), before any running over earlier looks. A look with a
    /// handful of installs per arm has plug-in variances too rough for the mixture SPRT's guarantee, and a look
    /// under a broken split is biased; the running minimum would never forget either.
    func lookEntries(_ comparisons: [FieldComparison], reportable: Bool, z: [String: Double] = [:]) -> [FieldLook.Entry] {
        guard reportable else { return [] }
        return comparisons.compactMap { c in
            guard hasEnoughInstalls(c), let p = c.sequentialPValue, let lower = c.sequentialLower,
                let upper = c.sequentialUpper
            else { return nil }
            return FieldLook.Entry(
                arm: c.arm, control: c.control, metric: c.metric, segment: c.segment, pValue: p, lower: lower, upper: upper,
                z: z[Self.key(c)])
        }
    }

    /// The comparisons with their always-valid p-values and intervals running over `history`: the smallest p and
    /// the intersected interval of every look of the same comparison. The mixture SPRT's p-value is valid at any
    /// stopping time, so its running minimum is too (that is what "always valid" means).
    static func running(_ comparisons: [FieldComparison], history: [FieldLook]) -> [FieldComparison] {
        guard !history.isEmpty else { return comparisons }
        var earlier: [String: [FieldLook.Entry]] = [:]
        for look in history {
            for entry in look.entries { earlier[entry.key, default: []].append(entry) }
        }
        return comparisons.map { comparison in
            var c = comparison
            guard let p = c.sequentialPValue, let lower = c.sequentialLower, let upper = c.sequentialUpper else { return c }
            let before = earlier[FieldLook.Entry.key(arm: c.arm, control: c.control, metric: c.metric, segment: c.segment)] ?? []
            guard !before.isEmpty else { return c }
            c.sequentialPValue = min(p, before.map(\.pValue).min() ?? p)
            c.sequentialLower = max(lower, before.map(\.lower).max() ?? lower)
            c.sequentialUpper = min(upper, before.map(\.upper).min() ?? upper)
            c.runningLooks = before.count + 1
            return c
        }
    }

    /// The field analysis alone; `history` makes its verdicts running ones (see ``running(_:history:)``).
    public func analysis(
        feature: String, configVersion: Int, events: [FieldEventRecord], prePeriod: [FieldEventRecord] = [],
        history: [FieldLook] = []
    ) -> FieldAnalysis {
        analyzedLook(
            runID: "", feature: feature, configVersion: configVersion, events: events, prePeriod: prePeriod,
            history: history, now: nil
        ).analysis
    }

    /// The field analysis and the entries this look keeps, for simulations that keep their own look history as the
    /// store does.
    package func analysisWithLook(
        feature: String, configVersion: Int, events: [FieldEventRecord], prePeriod: [FieldEventRecord] = [],
        history: [FieldLook] = []
    ) -> (analysis: FieldAnalysis, look: [FieldLook.Entry]) {
        let analyzed = analyzedLook(
            runID: "", feature: feature, configVersion: configVersion, events: events, prePeriod: prePeriod,
            history: history, now: nil)
        return (analyzed.analysis, analyzed.look?.entries ?? [])
    }

    /// The field analysis and the look to keep (nil when it keeps nothing), read at `now` (nil: the latest event's
    /// time), for simulations that keep their own look history as the store does; under a ``design`` the look
    /// records its plan.
    package func analyzedLook(
        runID: String, feature: String, configVersion: Int, events: [FieldEventRecord], prePeriod: [FieldEventRecord] = [],
        history: [FieldLook] = [], now: Date? = nil
    ) -> (analysis: FieldAnalysis, look: FieldLook?) {
        let clean = Self.cleanPrePeriod(prePeriod, events: events)
        let before = InstallTotals.byInstall(clean, keepLatencies: false)
        let whole = section(events, prePeriod: before, segment: nil)
        let installs = Dictionary(uniqueKeysWithValues: whole.arms.map { ($0.name, $0.installIDs.count) })
        let srm = percentages.isEmpty ? nil : SampleRatioMismatch(observed: installs, expectedPercent: percentages)
        let reportable = srm.map { !$0.mismatch } ?? false
        // With a split, the whole run and every segment are one family: Holm runs over all their comparisons
        // together, so a report with `--by` spends α once, not once for the run and again for the segments.
        let split = segmentLabel.map { segmentSections(events, label: $0, prePeriod: before) } ?? []
        let raw = whole.comparisons + split.flatMap(\.section.comparisons)
        // A look at the same number of events is this reading again (looks are kept per event count), not another.
        let earlier = history.filter { $0.events != events.count }
        let zValues = reportable ? Self.zValues(raw.filter(hasEnoughInstalls)) : [:]
        let readAt = now ?? events.map(\.occurredAt).max() ?? Date()
        let governor = design.map {
            PlannedLookGovernor(
                design: $0, alpha: options.alpha, progress: Self.progress(events, horizon: $0.horizon, now: readAt),
                earlier: earlier, current: zValues, again: history.first { $0.events == events.count }?.plan)
        }
        let family = adjusted(Self.running(raw, history: earlier), reportable: reportable, governor: governor)
        var analysis = FieldAnalysis(
            feature: feature, configVersion: configVersion, control: whole.control, sampleRatio: srm,
            effectsReportable: reportable, arms: whole.arms.map(\.summary),
            comparisons: Array(family.prefix(whole.comparisons.count)),
            method: method(reportable: reportable, srmKnown: srm != nil, prePeriod: !before.isEmpty)
                + (governor.map(Self.designMethod) ?? "")
                + (governor != nil && !reportable
                    ? " No look is kept while no effect is reported, so this reading neither counts as a planned look nor records the design with the run."
                    : ""))
        analysis.minimumInstalls = minimumInstalls
        analysis.ruleBranches = Self.ruleBranches(events, level: options.bootstrap.effectiveConfidenceLevel)
        if !prePeriod.isEmpty {
            let installs = Set(events.map(\.installID))
            analysis.prePeriod = FieldPrePeriod(
                installsWithCovariate: installs.filter { before[$0] != nil }.count, installs: installs.count,
                eventsUsed: clean.count, eventsExcluded: prePeriod.count - clean.count)
        }
        if let label = segmentLabel {
            analysis.segmentLabel = label
            let segmentComparisons = family.dropFirst(whole.comparisons.count)
            analysis.segments = split.map { value, section in
                let name = "\(label)=\(value)"
                return FieldSegment(
                    label: label, value: value, arms: section.arms.map(\.summary),
                    comparisons: segmentComparisons.filter { $0.segment == name },
                    judged: section.arms.allSatisfy { $0.installIDs.count >= minimumInstalls })
            }
        }
        let record = governor.map { self.plan($0, history: history, now: readAt) }
        analysis.design = record.map { record in
            FieldDesign.Reading(
                design: record.design, since: record.since, position: governor?.position.text ?? "", look: record.look,
                fraction: record.fraction)
        }
        let entries = lookEntries(raw, reportable: reportable, z: record?.look == nil ? [:] : zValues)
        let look = entries.isEmpty
            ? nil : FieldLook(runID: runID, events: events.count, recordedAt: readAt, entries: entries, plan: record)
        return (analysis, look)
    }

    /// The earlier events that may serve as CUPED's covariate: those an install sent before its first exposure to
    /// any rollout of the feature (an event served under a rollout carries its bucket or arm). Such events predate
    /// the randomisation, so whether an install has a covariate, and its value, cannot depend on the arm it is in
    /// now. An event served under an earlier rollout can: with the seed kept across versions an install stays in
    /// its arm, and its events there carry last version's effect, which only the treated installs have; and since
    /// only control installs could have clean events under last version's arm, the availability of a covariate
    /// would itself depend on the arm.
    static func cleanPrePeriod(_ prePeriod: [FieldEventRecord], events: [FieldEventRecord]) -> [FieldEventRecord] {
        guard !prePeriod.isEmpty else { return [] }
        var firstExposure: [String: Date] = [:]
        for list in [prePeriod, events] {
            for event in list where event.bucket != nil || event.rolloutArm != nil {
                if let seen = firstExposure[event.installID], seen <= event.occurredAt { continue }
                firstExposure[event.installID] = event.occurredAt
            }
        }
        return prePeriod.filter { event in
            guard event.bucket == nil, event.rolloutArm == nil else { return false }
            return firstExposure[event.installID].map { event.occurredAt < $0 } ?? true
        }
    }

    /// The arms of `events` and each against the control, not yet adjusted.
    private struct Section {
        var arms: [FieldArmFigures]
        var control: String
        var comparisons: [FieldComparison]
    }

    private func section(_ events: [FieldEventRecord], prePeriod: [String: InstallTotals], segment: String?) -> Section {
        let groups = Dictionary(grouping: events) { $0.rolloutArm ?? "default" }
        let level = options.bootstrap.effectiveConfidenceLevel
        let arms = groups.keys.sorted().map { FieldArmFigures(name: $0, events: groups[$0] ?? [], level: level) }
        let controlName = chooseControl(arms.map(\.name))
        var comparisons: [FieldComparison] = []
        if let control = arms.first(where: { $0.name == controlName }) {
            for arm in arms where arm.name != controlName {
                comparisons += FieldComparisons(
                    options: options, prePeriod: prePeriod, quantiles: describesQuantiles, capsWeights: capsInstallWeights)
                    .compare(arm, control)
            }
        }
        for index in comparisons.indices { comparisons[index].segment = segment }
        return Section(arms: arms, control: controlName, comparisons: comparisons)
    }

    /// One section per value of `label`, sorted by value, not yet adjusted.
    private func segmentSections(
        _ events: [FieldEventRecord], label: String, prePeriod: [String: InstallTotals]
    ) -> [(value: String, section: Section)] {
        let byValue = Dictionary(grouping: events) { $0.labels[label] ?? "(none)" }
        return byValue.keys.sorted().map { value in
            (value, section(byValue[value] ?? [], prePeriod: prePeriod, segment: "\(label)=\(value)"))
        }
    }

    private func chooseControl(_ names: [String]) -> String {
        if let control { return control }
        let configured = percentages.values.reduce(0, +)
        if names.contains("default") && (percentages.isEmpty || configured < 100) { return "default" }
        return percentages.keys.sorted().first { names.contains($0) } ?? names.first ?? "default"
    }

    /// Holm over the always-valid p-values of the comparisons with enough installs, the MDE at the family's α/m,
    /// then the verdicts.
    func adjusted(
        _ comparisons: [FieldComparison], reportable: Bool, governor: PlannedLookGovernor? = nil
    ) -> [FieldComparison] {
        let judged = comparisons.indices.filter {
            comparisons[$0].sequentialPValue != nil && hasEnoughInstalls(comparisons[$0])
        }
        let adjusted = HolmCorrection.adjustedPValues(judged.map { comparisons[$0].sequentialPValue ?? 1 })
        var out = comparisons
        // Under a planned design the always-valid test runs at the share kept for readings off the plan.
        let familyAlpha = (governor?.offPlanAlpha ?? options.alpha) / Double(max(1, judged.count))
        for (position, index) in judged.enumerated() {
            out[index].adjustedPValue = adjusted[position]
        }
        let statuses = reportable ? governor?.statuses(of: judged.map { Self.key(comparisons[$0]) }) ?? [:] : [:]
        for index in out.indices {
            if let se = out[index].standardError, let tau = out[index].tau {
                out[index].minimumDetectableEffect = MixtureSPRT.minimumDetectableEffect(
                    variance: se * se, tau: tau, alpha: familyAlpha, power: options.power)
            }
            if let governor, reportable, judged.contains(index) {
                (out[index].verdict, out[index].decidedBy) = plannedVerdict(
                    out[index], governor: governor, status: statuses[Self.key(out[index])], family: judged.count)
            } else {
                out[index].verdict = verdict(out[index], reportable: reportable, family: judged.count)
            }
        }
        return out
    }

    func hasEnoughInstalls(_ comparison: FieldComparison) -> Bool {
        guard let units = comparison.installs else { return true }
        return min(units.arm, units.control) >= minimumInstalls
    }

    func verdict(_ comparison: FieldComparison, reportable: Bool, family: Int) -> String {
        guard reportable else { return "not reported (sample ratio mismatch or unknown split)" }
        guard comparison.sequentialPValue != nil else { return "descriptive" }
        guard hasEnoughInstalls(comparison) else {
            return "not judged (fewer than \(minimumInstalls) installs in a group)"
        }
        // Always-valid intervals of one comparison all cover the truth with probability 1 − α together; when two
        // looks' intervals do not even overlap, the looks disagree and nothing may be concluded from them.
        if comparison.runningLooks != nil, let lower = comparison.sequentialLower, let upper = comparison.sequentialUpper,
            lower > upper
        {
            return "inconsistent across looks: not judged"
        }
        guard let p = comparison.adjustedPValue, p < options.alpha else {
            return heldBack(comparison, family: family) ?? "no detectable difference"
        }
        // Higher is better for adherence only; lower is better for rates of trouble, latency and cost. A running
        // verdict takes its direction from the running (intersected) interval, not from today's difference alone.
        let higherIsBetter = comparison.metric == "adherence"
        var direction = comparison.difference
        if comparison.runningLooks != nil, let lower = comparison.sequentialLower, let upper = comparison.sequentialUpper {
            direction = (lower + upper) / 2
        }
        return (direction > 0) == higherIsBetter ? "better" : "worse"
    }

    /// When the printed interval excludes 0 but the verdict does not decide, the rule that held it back, so the
    /// verdict never disagrees silently with what it prints (#68): Holm over the judged metrics (the interval is at α
    /// for its metric alone), or the last look's always-valid test where the interval is the one kept over the looks.
    func heldBack(_ comparison: FieldComparison, family: Int) -> String? {
        guard let lower = comparison.sequentialLower, let upper = comparison.sequentialUpper, lower > 0 || upper < 0 else {
            return nil
        }
        let raw = comparison.sequentialPValue ?? 1
        if raw < options.alpha, family > 1 {
            return String(
                format: "no detectable difference after Holm over %d metrics (adjusted p %.3g ≥ %.2g; the interval, at %.2g for this metric alone, excludes 0)",
                family, comparison.adjustedPValue ?? 1, options.alpha, options.alpha)
        }
        return String(
            format: "no detectable difference at this look (always-valid p %.3g ≥ %.2g; the interval kept over the looks excludes 0)",
            raw, options.alpha)
    }

    private func method(reportable: Bool, srmKnown: Bool, prePeriod: Bool) -> String {
        var text = "The install is the unit (the experiment randomises installs; events of one install are not "
            + "independent): each figure is a ratio of per-install sums with its delta-method variance (Deng, "
            + "Knoblich & Lu 2018), each install weighing at most three times its group's median install, so a "
            + "kiosk or a test device cannot carry an arm (n_eff: Kish's effective number of installs)"
            + (prePeriod
                ? ", CUPED-adjusted (Deng et al. 2013) with each install's value from before its first exposure to any "
                    + "rollout of the feature, so the covariate cannot depend on the arm; installs without one get the "
                    + "same imputed value in every arm and an indicator, and CUPED is switched off where the share of "
                    + "installs with a covariate differs by arm"
                : "; no install has events from before its first exposure to a rollout, so no CUPED adjustment")
            + ". Latency quantiles: install-level bootstrap, descriptive. Effects are claimed only on the mixture "
            + "SPRT's always-valid p-values (Johari et al. 2022; τ = 0.05 for rates, half the pooled per-event SD "
            + "for means), Holm-adjusted over the whole run and every segment together, so the report may be read after every upload without inflating false "
            + "positives; a group with fewer than \(minimumInstalls) installs is shown, not judged, and its look is "
            + "not kept (nor one taken while the sample-ratio check fails); looks whose intervals do not overlap are "
            + "inconsistent, not judged. MDE: the "
            + "difference the always-valid test would find now with \(Int(options.power * 100)) % power at α/m."
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
