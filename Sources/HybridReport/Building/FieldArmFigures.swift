import HybridStore

/// The counts and samples of one rollout arm that its row and its comparisons need.
struct FieldArmFigures {
    let name: String
    let events: Int
    let installs: Set<String>
    let adherent: Int
    let fellBack: Int
    let failed: Int
    /// Latency of answered, uncached events.
    let latencies: [Double]
    let summary: FieldArmSummary

    init(name: String, events records: [FieldEventRecord]) {
        self.name = name
        events = records.count
        installs = Set(records.map(\.installID))
        adherent = records.filter(\.adherent).count
        fellBack = records.filter(\.fellBack).count
        failed = records.filter { $0.outcome == "failed" }.count
        let answered = records.filter { !$0.cacheHit && $0.outcome != "failed" && $0.outcome != "declined" }
        latencies = answered.map(\.latencyMs)
        var errorsByKind: [String: Int] = [:]
        var servedBy: [String: Int] = [:]
        for record in records {
            servedBy[record.servedBy ?? "none", default: 0] += 1
            if record.outcome == "failed" { errorsByKind[record.errorKind ?? "unknown", default: 0] += 1 }
        }
        let cost = records.reduce(0) { $0 + $1.costUSD }
        summary = FieldArmSummary(
            name: name, variants: Set(records.map(\.variant)).sorted(), events: records.count,
            installs: installs.count, servedBy: servedBy,
            adherence: ProportionSummary(passed: adherent, total: records.count),
            fallback: ProportionSummary(passed: fellBack, total: records.count),
            errors: ProportionSummary(passed: failed, total: records.count), errorsByKind: errorsByKind,
            cacheHits: records.filter(\.cacheHit).count, latency: FieldLatency(latencies),
            ttft: FieldLatency(answered.compactMap(\.ttftMs)),
            costPer1000: records.isEmpty ? 0 : cost / Double(records.count) * 1_000)
    }
}

/// Arm against control, metric by metric.
struct FieldComparisons {
    let options: ReportOptions

    /// Field reports resample 1,000 times: enough for percentile intervals, and quick on large runs.
    var bootstrap: BootstrapConfiguration {
        var configuration = options.bootstrap
        configuration.resamples = min(configuration.resamples, 1_000)
        return configuration
    }

    func compare(_ arm: FieldArmFigures, _ control: FieldArmFigures) -> [FieldComparison] {
        var out: [FieldComparison] = []
        for (metric, a, c) in [
            ("adherence", arm.adherent, control.adherent), ("fallbackRate", arm.fellBack, control.fellBack),
            ("errorRate", arm.failed, control.failed),
        ] {
            if let comparison = proportion(metric, arm, a, control, c) { out.append(comparison) }
        }
        out += latency(arm, control)
        return out
    }

    private func proportion(
        _ metric: String, _ arm: FieldArmFigures, _ a: Int, _ control: FieldArmFigures, _ c: Int
    ) -> FieldComparison? {
        guard let interval = NewcombeInterval(successes1: a, trials1: arm.events, successes2: c, trials2: control.events)
        else { return nil }
        let sequential = MixtureSPRT.proportions(
            successes1: a, trials1: arm.events, successes2: c, trials2: control.events, alpha: options.alpha)
        let pooled = Double(a + c) / Double(arm.events + control.events)
        return FieldComparison(
            metric: metric, arm: arm.name, control: control.name, difference: interval.difference,
            lower: interval.lower, upper: interval.upper, intervalMethod: "newcombe", pValue: interval.pValue,
            sequentialLower: sequential?.lower, sequentialUpper: sequential?.upper,
            sequentialPValue: sequential?.pValue, adjustedPValue: nil,
            minimumDetectableEffect: MinimumDetectableEffect.twoProportions(
                pooledRate: pooled, counts: arm.events, control.events, alpha: options.alpha, power: options.power),
            verdict: "")
    }

    private func latency(_ arm: FieldArmFigures, _ control: FieldArmFigures) -> [FieldComparison] {
        var out: [FieldComparison] = []
        let first = SampleMoments(arm.latencies)
        let second = SampleMoments(control.latencies)
        for (metric, statistic) in [
            ("latencyMeanMs", TwoSampleBootstrap.Statistic.mean), ("latencyP50Ms", .quantile(0.5)),
            ("latencyP95Ms", .quantile(0.95)),
        ] {
            guard let result = TwoSampleBootstrap(arm.latencies, control.latencies, statistic: statistic, configuration: bootstrap)
            else { continue }
            let sequential = statistic == .mean ? MixtureSPRT.means(first, second, alpha: options.alpha) : nil
            let pooledSD = (((first.variance ?? 0) + (second.variance ?? 0)) / 2).squareRoot()
            out.append(
                FieldComparison(
                    metric: metric, arm: arm.name, control: control.name, difference: result.difference,
                    lower: result.lower, upper: result.upper, intervalMethod: Self.name(result.method),
                    pValue: result.pValue, sequentialLower: sequential?.lower, sequentialUpper: sequential?.upper,
                    sequentialPValue: sequential?.pValue, adjustedPValue: nil,
                    minimumDetectableEffect: statistic == .mean
                        ? MinimumDetectableEffect.twoMeans(
                            standardDeviation: pooledSD, counts: first.count, second.count, alpha: options.alpha,
                            power: options.power) : nil,
                    verdict: ""))
        }
        return out
    }

    private static func name(_ method: IntervalMethod) -> String {
        switch method {
        case .percentileBootstrap(let resamples, _): "bootstrap(\(resamples))"
        case .normalApproximation: "welch"
        }
    }
}
