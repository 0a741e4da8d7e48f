extension ArmAccumulator {
    /// The arm's row and its per-case vectors padded to `caseCount`. Errors become adherence failures only when
    /// the feature has constraints; otherwise there is no adherence to fail. With `reduction`, the per-case vectors,
    /// every interval and the latency distribution are computed on cases, their repeats reduced first.
    func summary(
        caseCount: Int, featureHasConstraints: Bool, constraintNames: [String], reduction: CaseReduction? = nil,
        options: ReportOptions
    ) -> ArmSummary {
        if let reason = notMeasuredReason { return notMeasuredSummary(reason: reason) }
        // The compact forms of ArmCases: -1 and NaN for nil.
        var caseAdherence = [Int8](repeating: -1, count: caseCount)
        for (index, code) in adherence.enumerated() {
            switch code {
            case .absent, .unchecked: break
            case .failed: caseAdherence[index] = 0
            case .passed: caseAdherence[index] = 1
            case .errored: caseAdherence[index] = featureHasConstraints ? 0 : -1
            }
        }
        let figures = CaseFigures(
            adherence: caseAdherence, scores: scores.mapValues { Self.padded($0, count: caseCount) },
            totalMs: Self.padded(totalMs, count: caseCount), reduction: reduction)
        let quality = figures.scores.keys.sorted().compactMap { scorer in
            Self.scoreSummary(scorer: scorer, values: (figures.scores[scorer] ?? []).filter { !$0.isNaN }, options: options)
        }
        let errorsAsFailures = featureHasConstraints ? errorCount : 0
        let constraints = constraintNames.compactMap { name -> NamedProportion? in
            let counts = constraintCounts[name] ?? (0, 0)
            return figures.proportion(passed: counts.passed, total: counts.total + errorsAsFailures).map {
                NamedProportion(name: name, proportion: $0)
            }
        }
        let latency = LatencySummary(
            sampleCount: figures.totalMs.lazy.filter { !$0.isNaN }.count,
            excludedCacheHits: latencyExcluded.cacheHits,
            excludedRetried: latencyExcluded.retried,
            excludedColdStarts: latencyExcluded.coldStarts,
            excludedErrors: latencyExcluded.errors,
            ttftMs: DistributionSummary(ttftMs),
            totalMs: DistributionSummary(figures.totalMs, withQuantiles: true),
            decodeTokensPerSecond: DistributionSummary(decodeTokensPerSecond),
            coldStartTotalMs: DistributionSummary(coldStartTotalMs),
            queueingMs: DistributionSummary(queueingMs, withQuantiles: true)
        )
        var summary = ArmSummary(
            armID: armID, promptVariant: promptVariant, modelID: modelID, tier: tier, count: count,
            errorCount: errorCount, errorsByKind: errorsByKind, cacheHits: cacheHits, retried: retried,
            coldStarts: coldStarts,
            adherence: featureHasConstraints ? figures.adherenceSummary(passed: checkedPassed, total: checkedTotal + errorCount) : nil,
            constraints: constraints, quality: quality, latency: latency,
            tokens: TokenSummary(
                resultsWithUsage: resultsWithUsage, estimatedCount: estimatedUsage, promptTokens: promptTokens,
                completionTokens: completionTokens
            ),
            cost: pricedCount > 0 ? CostSummary(pricedCount: pricedCount, totalUSD: totalCostUSD) : nil,
            paretoOptimal: nil,
            cases: figures.cases
        )
        if count > 0 && errorCount == count { summary.unansweredErrors = errorMessages }
        return summary
    }

    /// Drops the arrays only ``summary(caseCount:featureHasConstraints:constraintNames:options:)`` reads; the
    /// per-case arrays stay for the side by side.
    mutating func releaseSummaryInputs() {
        ttftMs = []
        decodeTokensPerSecond = []
        coldStartTotalMs = []
    }

    /// An arm that was never sent: its counts, and no figure that could read as a measurement.
    private func notMeasuredSummary(reason: String) -> ArmSummary {
        ArmSummary(
            armID: armID, promptVariant: promptVariant, modelID: modelID, tier: tier, count: count,
            errorCount: errorCount, errorsByKind: errorsByKind, cacheHits: 0, retried: 0, coldStarts: 0,
            adherence: nil, constraints: [], quality: [],
            latency: LatencySummary(
                sampleCount: 0, excludedCacheHits: 0, excludedRetried: 0, excludedColdStarts: 0, excludedErrors: count,
                ttftMs: nil, totalMs: nil, decodeTokensPerSecond: nil, coldStartTotalMs: nil),
            tokens: TokenSummary(resultsWithUsage: 0, estimatedCount: 0, promptTokens: 0, completionTokens: 0),
            cost: nil, paretoOptimal: nil, cases: nil, notMeasured: reason)
    }

    static func scoreSummary(scorer: String, values: [Double], options: ReportOptions) -> ScoreSummary? {
        guard let first = values.first else { return nil }
        guard let interval = BootstrapMeanInterval(values, configuration: options.bootstrap) else {
            return ScoreSummary(
                scorer: scorer, count: values.count, mean: first, lower: nil, upper: nil, standardError: nil,
                method: "single-value"
            )
        }
        return ScoreSummary(
            scorer: scorer, count: interval.count, mean: interval.mean, lower: interval.lower, upper: interval.upper,
            standardError: interval.standardError, method: ComparisonCalculator.methodName(interval.method)
        )
    }

    /// `values` (NaN where a case has none) extended with NaN to `count` cases.
    static func padded(_ values: [Double], count: Int) -> [Double] {
        values.count >= count ? values : values + repeatElement(.nan, count: count - values.count)
    }
}
