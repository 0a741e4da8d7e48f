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
        var hedge = HedgeTally()
        for record in records {
            hedge.add(record)
            byInstall[record.installID, default: InstallTotals()].add(record, keepLatencies: true)
            servedBy[record.servedBy ?? "none", default: 0] += 1
            variants.insert(record.variant)
            if record.outcome == "failed" { errorsByKind[record.errorKind ?? "unknown", default: 0] += 1 }
            if record.cacheHit { cacheHits += 1 }
            cost += record.costUSD
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

    /// The rate over events with an interval on installs (delta method, normal, clipped to [0, 1]); Wilson's on
    /// events when there are fewer than two installs.
    private static func rate(
        _ metric: FieldMetric, _ installs: [InstallTotals], passed: Int, total: Int, level: Double
    ) -> ProportionSummary? {
        guard total > 0 else { return nil }
        guard let estimate = metric.estimate(installs) else { return ProportionSummary(passed: passed, total: total) }
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
        let cap = capsWeights ? metric.weightCap(arm.installs, control.installs) : nil
        guard let a = metric.estimate(arm.installs, cap: cap), let c = metric.estimate(control.installs, cap: cap),
            let tau = metric.tau(arm.installs, control.installs, cap: cap)
        else { return nil }
        var difference = a.ratio - c.ratio
        var variance = a.variance + c.variance
        var reduction: Double?
        if let adjustment = cuped(metric, arm, a, control, c) {
            difference = adjustment.difference
            variance = adjustment.variance
            reduction = adjustment.varianceReduction
        }
        if metric.isRate {
            // A floor at the independent-events variance of shrunk rates, so that 100 % against 100 % (no spread
            // between installs at all) still has a test, as the event-level test had.
            variance = max(variance, Self.binomialFloor(a, c))
        }
        let se = variance.squareRoot()
        let z = NormalDistribution.quantile(1 - (1 - bootstrap.effectiveConfidenceLevel) / 2)
        let sequential = MixtureSPRT(difference: difference, variance: variance, tau: tau, alpha: options.alpha)
        return FieldComparison(
            metric: metric.name, arm: arm.name, control: control.name, difference: difference,
            lower: difference - z * se, upper: difference + z * se,
            intervalMethod: reduction == nil ? "delta-method" : "delta-method+cuped",
            pValue: se > 0 ? NormalDistribution.twoSidedPValue(z: difference / se) : (difference == 0 ? 1 : 0),
            sequentialLower: sequential?.lower, sequentialUpper: sequential?.upper,
            sequentialPValue: sequential?.pValue, adjustedPValue: nil, minimumDetectableEffect: nil, verdict: "",
            installs: FieldUnits(
                arm: a.units, control: c.units,
                armEvents: Int(arm.installs.reduce(0) { $0 + metric.denominator($1) }),
                controlEvents: Int(control.installs.reduce(0) { $0 + metric.denominator($1) }),
                armEffective: metric.effectiveInstalls(arm.installs, cap: cap),
                controlEffective: metric.effectiveInstalls(control.installs, cap: cap)),
            standardError: se, tau: tau, varianceReduction: reduction)
    }

    private func cuped(
        _ metric: FieldMetric, _ arm: FieldArmFigures, _ a: RatioEstimate, _ control: FieldArmFigures,
        _ c: RatioEstimate
    ) -> CupedAdjustment? {
        guard !prePeriod.isEmpty,
            let (x, y) = metric.covariates(arm.installIDs, control.installIDs, prePeriod: prePeriod)
        else { return nil }
        return CupedAdjustment(a, covariates: x, c, covariates: y)
    }

    /// q̃(1 − q̃)/n summed over both arms, with q̃ = (s + ½)/(n + 1) over events.
    private static func binomialFloor(_ a: RatioEstimate, _ c: RatioEstimate) -> Double {
        [a, c].reduce(0) { sum, estimate in
            let n = estimate.denominatorTotal
            let q = (estimate.ratio * n + 0.5) / (n + 1)
            return sum + q * (1 - q) / n
        }
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
