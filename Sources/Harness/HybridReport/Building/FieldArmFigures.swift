import HybridStore

/// One rollout arm of a field run: its installs' sums (the unit of every comparison) and its row.
struct FieldArmFigures {
    let name: String
    /// Install ids, sorted, and their sums in the same order.
    let installIDs: [String]
    let installs: [InstallTotals]
    private(set) var summary: FieldArmSummary

    init(name: String, events records: [FieldEventRecord], level: Double) {
        self.name = name
        // One pass over the events: a report is read after every upload, over every event so far.
        var byInstall: [String: InstallTotals] = [:]
        var errorsByKind: [String: Int] = [:]
        var servedBy: [String: Int] = [:]
        var variants: Set<String> = []
        var latencies: [Double] = []
        var ttfts: [Double] = []
        var cacheHits = 0
        var cost = 0.0
        var costUnknown = 0
        var hedge = HedgeTally()
        for record in records {
            hedge.add(record)
            byInstall[record.installID, default: InstallTotals()].add(record, keepLatencies: true)
            servedBy[record.servedBy ?? "none", default: 0] += 1
            variants.insert(record.variant)
            if record.outcome == "failed" { errorsByKind[record.errorKind ?? "unknown", default: 0] += 1 }
            if record.cacheHit { cacheHits += 1 }
            cost += record.costUSD
            if record.costUnknown { costUnknown += 1 }
            if record.isLatencyEligible {
                latencies.append(record.latencyMs)
                if let ttft = record.ttftMs { ttfts.append(ttft) }
            }
        }
        installIDs = byInstall.keys.sorted()
        let installs = installIDs.map { byInstall[$0] ?? InstallTotals() }
        self.installs = installs
        func rate(_ metric: FieldMetric, _ count: (InstallTotals) -> Int) -> ProportionSummary? {
            Self.rate(metric, installs, passed: installs.reduce(0) { $0 + count($1) }, total: records.count, level: level)
        }
        summary = FieldArmSummary(
            name: name, variants: variants.sorted(), events: records.count, installs: installs.count,
            servedBy: servedBy, adherence: rate(.adherence, \.adherent), fallback: rate(.fallbackRate, \.fellBack),
            errors: rate(.errorRate, \.failed), errorsByKind: errorsByKind, cacheHits: cacheHits,
            latency: FieldLatency(latencies), ttft: FieldLatency(ttfts),
            costPer1000: records.isEmpty ? 0 : cost / Double(records.count) * 1_000)
        summary.hedge = hedge.summary(events: records.count)
        summary.costUnknownEvents = costUnknown > 0 ? costUnknown : nil
    }

    /// Hedged requests' counts and costs, beside the unhedged ones' costs for the baseline.
    private struct HedgeTally {
        var hedged = 0
        var wins: [String: Int] = [:]
        var hedgedCost = 0.0
        var unhedgedCost = 0.0

        mutating func add(_ record: FieldEventRecord) {
            guard record.hedged else {
                unhedgedCost += record.costUSD
                return
            }
            hedged += 1
            wins[record.servedBy ?? "none", default: 0] += 1
            hedgedCost += record.costUSD
        }

        func summary(events: Int) -> FieldHedgeSummary? {
            guard hedged > 0 else { return nil }
            let unhedged = events - hedged
            let baseline = unhedged == 0 ? 0 : unhedgedCost / Double(unhedged)
            return FieldHedgeSummary(
                hedged: hedged, events: events, winsByModel: wins,
                extraCostPer1000: (hedgedCost - baseline * Double(hedged)) / Double(events) * 1_000)
        }
    }

    /// The rate over events, each install capped as in every comparison (``FieldMetric/weightCap(_:)``), with an
    /// interval on installs (delta method, normal, clipped to [0, 1]); Wilson's on events when there are fewer than
    /// two installs. The floor tests of `recommend --by` read this rate, so they judge the report's estimand.
    private static func rate(
        _ metric: FieldMetric, _ installs: [InstallTotals], passed: Int, total: Int, level: Double
    ) -> ProportionSummary? {
        guard total > 0 else { return nil }
        guard let estimate = metric.estimate(installs, cap: metric.weightCap(installs)) else {
            return ProportionSummary(passed: passed, total: total)
        }
        let half = NormalDistribution.quantile(1 - (1 - level) / 2) * estimate.variance.squareRoot()
        return ProportionSummary(
            passed: passed, total: total, rate: estimate.ratio, lower: max(0, estimate.ratio - half),
            upper: min(1, estimate.ratio + half), units: installs.count)
    }

    /// Each install's latencies, in `installs` order.
    var latenciesByInstall: [[Double]] { installs.map(\.latencies) }
}

/// Arm against control, metric by metric, on installs.
struct FieldComparisons {
    let options: ReportOptions
    /// Per install id, its sums before the experiment (CUPED's covariates); empty without pre-period events.
    let prePeriod: [String: InstallTotals]
    /// Whether to bootstrap the latency quantiles.
    let quantiles: Bool
    /// Whether each install's weight is capped (`FieldMetric.weightCap`).
    var capsWeights = true

    /// Field reports resample at most 1,000 times: enough for percentile intervals, and quick on large runs.
    var bootstrap: BootstrapConfiguration {
        var configuration = options.bootstrap
        configuration.resamples = min(configuration.resamples, 1_000)
        return configuration
    }

    func compare(_ arm: FieldArmFigures, _ control: FieldArmFigures) -> [FieldComparison] {
        FieldMetric.sequential.compactMap { ratio($0, arm, control) } + (quantiles ? quantileComparisons(arm, control) : [])
    }

    /// A ratio metric: the difference, its delta-method variance (CUPED-adjusted when the installs have
    /// pre-period events), the fixed-horizon interval and the always-valid test on that variance.
    private func ratio(_ metric: FieldMetric, _ arm: FieldArmFigures, _ control: FieldArmFigures) -> FieldComparison? {
        let armCap = capsWeights ? metric.weightCap(arm.installs) : nil
        let controlCap = capsWeights ? metric.weightCap(control.installs) : nil
        guard let a = metric.estimate(arm.installs, cap: armCap), let c = metric.estimate(control.installs, cap: controlCap),
            let tau = metric.tau(arm.installs, control.installs, caps: (armCap, controlCap))
        else { return nil }
        var difference = a.ratio - c.ratio
        var variance = a.variance + c.variance
        var reduction: Double?
        var method = "delta-method"
        switch cuped(metric, arm, a, control, c) {
        case .adjusted(let adjustment):
            difference = adjustment.difference
            variance = adjustment.variance
            reduction = adjustment.varianceReduction
            method = "delta-method+cuped"
        case .off(let why):
            method = "delta-method (CUPED off: \(why))"
        case nil:
            break
        }
        if metric.isRate {
            // A floor at the independent-events variance of shrunk rates, so that 100 % against 100 % (no spread
            // between installs at all) still has a test, as the event-level test had.
            variance = max(variance, [a, c].reduce(0) { $0 + RatioEstimate.shareVarianceFloor(rate: $1.ratio, events: $1.denominatorTotal) })
        }
        let se = variance.squareRoot()
        let z = NormalDistribution.quantile(1 - (1 - bootstrap.effectiveConfidenceLevel) / 2)
        let sequential = MixtureSPRT(difference: difference, variance: variance, tau: tau, alpha: options.alpha)
        return FieldComparison(
            metric: metric.name, arm: arm.name, control: control.name, difference: difference,
            lower: difference - z * se, upper: difference + z * se,
            intervalMethod: method,
            pValue: se > 0 ? NormalDistribution.twoSidedPValue(z: difference / se) : (difference == 0 ? 1 : 0),
            sequentialLower: sequential?.lower, sequentialUpper: sequential?.upper,
            sequentialPValue: sequential?.pValue, adjustedPValue: nil, minimumDetectableEffect: nil, verdict: "",
            installs: FieldUnits(
                arm: a.units, control: c.units,
                armEvents: Int(arm.installs.reduce(0) { $0 + metric.denominator($1) }),
                controlEvents: Int(control.installs.reduce(0) { $0 + metric.denominator($1) }),
                armEffective: metric.effectiveInstalls(arm.installs, cap: armCap),
                controlEffective: metric.effectiveInstalls(control.installs, cap: controlCap)),
            standardError: se, tau: tau, varianceReduction: reduction)
    }

    /// What CUPED did for one comparison.
    private enum Cuped {
        case adjusted(CupedAdjustment)
        /// Switched off, and why.
        case off(String)
    }

    /// CUPED over the installs' pre-exposure covariates; off when the share of installs with one differs by arm
    /// (a covariate whose availability depends on the arm would carry the arm's effect into the adjustment).
    private func cuped(
        _ metric: FieldMetric, _ arm: FieldArmFigures, _ a: RatioEstimate, _ control: FieldArmFigures,
        _ c: RatioEstimate
    ) -> Cuped? {
        guard !prePeriod.isEmpty,
            let (x, y) = metric.covariates(arm.installIDs, control.installIDs, prePeriod: prePeriod)
        else { return nil }
        if let why = Self.coverageDiffers(x, y) { return .off(why) }
        return CupedAdjustment(a, covariates: x, c, covariates: y).map(Cuped.adjusted)
    }

    /// A description of the difference when the share of installs with a covariate differs between the groups by
    /// more than 10 points, or beyond chance (two-proportion test, p < 0.001); nil when it does not.
    static func coverageDiffers(_ first: [CupedCovariate], _ second: [CupedCovariate]) -> String? {
        let n1 = Double(first.count), n2 = Double(second.count)
        guard n1 > 0, n2 > 0 else { return nil }
        let k1 = Double(first.filter(\.present).count), k2 = Double(second.filter(\.present).count)
        let p1 = k1 / n1, p2 = k2 / n2
        let pooled = (k1 + k2) / (n1 + n2)
        let se = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
        let p = se > 0 ? NormalDistribution.twoSidedPValue(z: (p1 - p2) / se) : 1
        guard abs(p1 - p2) > 0.10 || p < 0.001 else { return nil }
        return String(format: "installs with a covariate %.0f %% vs %.0f %% by arm", p1 * 100, p2 * 100)
    }

    /// Latency p50 and p95: install-level bootstrap intervals, descriptive (no always-valid test).
    private func quantileComparisons(_ arm: FieldArmFigures, _ control: FieldArmFigures) -> [FieldComparison] {
        [("latencyP50Ms", 0.5), ("latencyP95Ms", 0.95)].compactMap { metric, q in
            guard let result = ClusterQuantileBootstrap(
                arm.latenciesByInstall, control.latenciesByInstall, quantile: q, configuration: bootstrap)
            else { return nil }
            return FieldComparison(
                metric: metric, arm: arm.name, control: control.name, difference: result.difference,
                lower: result.lower, upper: result.upper, intervalMethod: "install-bootstrap(\(result.resamples))",
                pValue: result.pValue, sequentialLower: nil, sequentialUpper: nil, sequentialPValue: nil,
                adjustedPValue: nil, minimumDetectableEffect: nil, verdict: "",
                installs: FieldUnits(
                    arm: arm.installs.count, control: control.installs.count,
                    armEvents: arm.installs.reduce(0) { $0 + $1.answered },
                    controlEvents: control.installs.reduce(0) { $0 + $1.answered }),
                standardError: nil, tau: nil, varianceReduction: nil)
        }
    }
}
