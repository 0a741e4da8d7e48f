/// The field part of a report on a field run (router events from apps): the split check, one row per rollout arm,
/// and each arm against the control with unpaired methods. Absent (nil) in reports of offline runs.
public struct FieldAnalysis: Sendable, Hashable, Codable {
    /// The feature the field run covers.
    public var feature: String
    /// The config version the events ran under.
    public var configVersion: Int
    /// The group the other arms are compared with (`default` = installs outside every arm).
    public var control: String
    /// The sample-ratio-mismatch check over distinct installs; nil when the configured split is unknown.
    public var sampleRatio: SampleRatioMismatch?
    /// True when effects may be claimed: the split check ran and passed.
    public var effectsReportable: Bool
    /// One row per group, sorted by name.
    public var arms: [FieldArmSummary]
    /// Each arm against the control, Holm-adjusted across the report.
    public var comparisons: [FieldComparison]
    /// How claims are made, printed with the report (the always-valid method and what it means for peeking).
    public var method: String
    /// Installs an arm needs before its comparisons are judged (below it they are shown, not judged).
    public var minimumInstalls: Int?
    /// The label the report was split by (`--by`), and its segments; nil without a split.
    public var segmentLabel: String?
    /// One analysis per value of `segmentLabel`, sorted by value.
    public var segments: [FieldSegment]?
    /// CUPED's pre-period: how many of this run's installs have a covariate, and how many earlier events were left
    /// out because the install was then served something other than what the control serves now; nil without
    /// earlier events.
    public var prePeriod: FieldPrePeriod?
    /// One row per input rule the events name plus the feature's own route, descriptive (see ``FieldRuleBranch``);
    /// nil when no event names a rule.
    public var ruleBranches: [FieldRuleBranch]?
    /// The planned design the report was read under and where this reading stood in it; nil under the always-valid
    /// design.
    public var design: FieldDesign.Reading?

    /// The analysis; normally made by ``FieldReportBuilder``.
    public init(
        feature: String, configVersion: Int, control: String, sampleRatio: SampleRatioMismatch?,
        effectsReportable: Bool, arms: [FieldArmSummary], comparisons: [FieldComparison], method: String
    ) {
        self.feature = feature
        self.configVersion = configVersion
        self.control = control
        self.sampleRatio = sampleRatio
        self.effectsReportable = effectsReportable
        self.arms = arms
        self.comparisons = comparisons
        self.method = method
        minimumInstalls = nil
        segmentLabel = nil
        segments = nil
    }

    /// The row of `arm`.
    public func arm(_ name: String) -> FieldArmSummary? {
        arms.first { $0.name == name }
    }

    /// The comparisons of `arm`.
    public func comparisons(of arm: String) -> [FieldComparison] {
        comparisons.filter { $0.arm == arm }
    }
}

/// One rollout arm's figures from the field.
public struct FieldArmSummary: Sendable, Hashable, Codable {
    /// The arm's name, or `default`.
    public var name: String
    /// Prompt variants seen in the arm, sorted.
    public var variants: [String]
    /// Events.
    public var events: Int
    /// Distinct installs.
    public var installs: Int
    /// Events served by each model (`none` when no model served), sorted by model.
    public var servedBy: [String: Int]
    /// Events answered with every check passed (failed requests count as failures).
    public var adherence: ProportionSummary?
    /// Events where the router fell back past the first model called.
    public var fallback: ProportionSummary?
    /// Events that failed (no answer).
    public var errors: ProportionSummary?
    /// Failed events by error kind.
    public var errorsByKind: [String: Int]
    /// Events answered from the router's cache.
    public var cacheHits: Int
    /// Latency of answered, uncached events.
    public var latency: FieldLatency?
    /// Time to first token of answered, uncached, streamed events.
    public var ttft: FieldLatency?
    /// Cost per 1,000 requests, in US dollars, over the calls whose model has prices.
    public var costPer1000: Double

    /// ``costPer1000`` as the reports print it: "$0.1234", or "≥ $0.1234 (3 events of unknown price)".
    public var costText: String {
        let figure = "$" + FieldFormatting.number(costPer1000, digits: 4)
        guard let unknown = costUnknownEvents, unknown > 0 else { return figure }
        return "≥ \(figure) (\(unknown) event\(unknown == 1 ? "" : "s") of unknown price)"
    }
    /// Events that called a model without prices: ``costPer1000`` is then a lower bound; nil when there are none.
    public var costUnknownEvents: Int?
    /// Hedged requests of the arm; nil when none was hedged.
    public var hedge: FieldHedgeSummary?

    /// A row; see the properties.
    public init(
        name: String, variants: [String], events: Int, installs: Int, servedBy: [String: Int],
        adherence: ProportionSummary?, fallback: ProportionSummary?, errors: ProportionSummary?,
        errorsByKind: [String: Int], cacheHits: Int, latency: FieldLatency?, ttft: FieldLatency?, costPer1000: Double
    ) {
        self.name = name
        self.variants = variants
        self.events = events
        self.installs = installs
        self.servedBy = servedBy
        self.adherence = adherence
        self.fallback = fallback
        self.errors = errors
        self.errorsByKind = errorsByKind
        self.cacheHits = cacheHits
        self.latency = latency
        self.ttft = ttft
        self.costPer1000 = costPer1000
    }
}

/// Percentiles (type 7) and mean of a set of durations, in milliseconds.
public struct FieldLatency: Sendable, Hashable, Codable {
    /// Values.
    public var count: Int
    /// Median.
    public var p50: Double
    /// 95th percentile.
    public var p95: Double
    /// 99th percentile.
    public var p99: Double
    /// Mean.
    public var mean: Double

    /// The summary of `values`, or nil when empty.
    public init?(_ values: [Double]) {
        guard let percentiles = Percentiles(values) else { return nil }
        count = percentiles.count
        p50 = percentiles.p50
        p95 = percentiles.p95
        p99 = percentiles.p99
        mean = SampleMoments(percentiles.sorted).mean
    }
}

/// One metric of one arm against the control.
public struct FieldComparison: Sendable, Hashable, Codable {
    /// `adherence`, `fallbackRate`, `errorRate` (proportions), `latencyMeanMs`, `latencyP50Ms`, `latencyP95Ms`.
    public var metric: String
    /// The arm.
    public var arm: String
    /// The control.
    public var control: String
    /// Arm minus control.
    public var difference: Double
    /// Fixed-horizon interval at the current number of installs: delta method (normal) for ratio metrics, an
    /// install-level bootstrap for latency quantiles.
    public var lower: Double
    /// Upper bound of that interval.
    public var upper: Double
    /// The interval's method: `delta-method`, `delta-method+cuped`, `install-bootstrap(1000)`.
    public var intervalMethod: String
    /// Fixed-horizon two-sided p-value.
    public var pValue: Double
    /// Always-valid (mixture SPRT) interval, for rates and means; nil for quantiles.
    public var sequentialLower: Double?
    /// Upper bound of the always-valid interval.
    public var sequentialUpper: Double?
    /// Always-valid p-value; claims are made on it.
    public var sequentialPValue: Double?
    /// `sequentialPValue` Holm-adjusted across every sequential comparison of the report.
    public var adjustedPValue: Double?
    /// Smallest difference the always-valid test would declare now with 80 % power, at α divided by the number of
    /// comparisons Holm adjusts over (its first step), on the installs' variance.
    public var minimumDetectableEffect: Double?
    /// `better`, `worse` or `no detectable difference`; `not reported (sample ratio mismatch)` while the split
    /// check fails, `descriptive` for quantiles (no always-valid test), `not judged (…)` below the minimum installs.
    public var verdict: String
    /// The units behind the comparison: installs (the unit of analysis) and events per side.
    public var installs: FieldUnits?
    /// Standard error of the difference: delta method over installs, CUPED-adjusted when `varianceReduction` is
    /// set; nil for quantiles.
    public var standardError: Double?
    /// The mSPRT's mixing scale τ (the effect worth finding); nil for quantiles.
    public var tau: Double?
    /// 1 − CUPED variance / plain variance, when installs had events before the experiment's config version.
    public var varianceReduction: Double?
    /// `label=value` of the segment the comparison is restricted to; nil for the whole run.
    public var segment: String?
    /// The looks the always-valid p-value and interval run over (this one included): the p is the smallest seen and
    /// the interval the intersection of all, so a verdict seen at an earlier look stays; nil without kept looks.
    public var runningLooks: Int?
    /// Under a planned design, which test governed the verdict: "planned look 3 of 7, t 0.43, |z| 2.91 ≥ boundary
    /// 2.47 at α 0.0225" or "always-valid at α 0.005"; nil under the always-valid design or when not judged.
    public var decidedBy: String?

    /// A comparison; see the properties.
    public init(
        metric: String, arm: String, control: String, difference: Double, lower: Double, upper: Double,
        intervalMethod: String, pValue: Double, sequentialLower: Double?, sequentialUpper: Double?,
        sequentialPValue: Double?, adjustedPValue: Double?, minimumDetectableEffect: Double?, verdict: String,
        installs: FieldUnits? = nil, standardError: Double? = nil, tau: Double? = nil, varianceReduction: Double? = nil,
        segment: String? = nil
    ) {
        self.installs = installs
        self.standardError = standardError
        self.tau = tau
        self.varianceReduction = varianceReduction
        self.segment = segment
        self.metric = metric
        self.arm = arm
        self.control = control
        self.difference = difference
        self.lower = lower
        self.upper = upper
        self.intervalMethod = intervalMethod
        self.pValue = pValue
        self.sequentialLower = sequentialLower
        self.sequentialUpper = sequentialUpper
        self.sequentialPValue = sequentialPValue
        self.adjustedPValue = adjustedPValue
        self.minimumDetectableEffect = minimumDetectableEffect
        self.verdict = verdict
    }
}

/// What CUPED's covariates rest on. An install's earlier events count only when it was served then what the control
/// serves now (the control's arm or no arm, and one of the control's variants): events of another arm or variant
/// would carry that treatment's effect into the covariate, and the adjustment would turn it into a new effect.
public struct FieldPrePeriod: Sendable, Hashable, Codable {
    /// Installs of this run with at least one clean earlier event (they get a covariate).
    public var installsWithCovariate: Int
    /// Installs of this run.
    public var installs: Int
    /// Earlier events used.
    public var eventsUsed: Int
    /// Earlier events left out: served another arm or variant than the control serves now.
    public var eventsExcluded: Int

    /// Figures; see the properties.
    public init(installsWithCovariate: Int, installs: Int, eventsUsed: Int, eventsExcluded: Int) {
        self.installsWithCovariate = installsWithCovariate
        self.installs = installs
        self.eventsUsed = eventsUsed
        self.eventsExcluded = eventsExcluded
    }
}

/// Installs and events on each side of a field comparison.
public struct FieldUnits: Sendable, Hashable, Codable {
    /// Installs of the arm: the unit of analysis.
    public var arm: Int
    /// Installs of the control.
    public var control: Int
    /// Events behind the arm's figure (the ratio's denominator).
    public var armEvents: Int
    /// Events behind the control's figure.
    public var controlEvents: Int
    /// Kish's effective number of the arm's installs, (Σw)²/Σw² over their capped event weights; far below
    /// ``arm`` when a few installs carry most events. nil for quantiles.
    public var armEffective: Double?
    /// The same for the control.
    public var controlEffective: Double?

    /// Units; see the properties.
    public init(
        arm: Int, control: Int, armEvents: Int, controlEvents: Int, armEffective: Double? = nil,
        controlEffective: Double? = nil
    ) {
        self.arm = arm
        self.control = control
        self.armEvents = armEvents
        self.controlEvents = controlEvents
        self.armEffective = armEffective
        self.controlEffective = controlEffective
    }
}

/// A field report restricted to the events carrying one value of one label (`--by deviceClass`): the same arms,
/// methods and verdicts, Holm-adjusted across every segment of the report.
public struct FieldSegment: Sendable, Hashable, Codable {
    /// The label split on.
    public var label: String
    /// Its value; `(none)` for events without the label.
    public var value: String
    /// One row per group in the segment.
    public var arms: [FieldArmSummary]
    /// Each arm against the control within the segment.
    public var comparisons: [FieldComparison]
    /// False when an arm has fewer installs than the minimum: shown, never judged.
    public var judged: Bool

    /// A segment; see the properties.
    public init(label: String, value: String, arms: [FieldArmSummary], comparisons: [FieldComparison], judged: Bool) {
        self.label = label
        self.value = value
        self.arms = arms
        self.comparisons = comparisons
        self.judged = judged
    }

    /// The row of `arm`.
    public func arm(_ name: String) -> FieldArmSummary? {
        arms.first { $0.name == name }
    }
}
