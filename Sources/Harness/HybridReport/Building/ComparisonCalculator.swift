import Foundation

/// A comparison computed but not yet judged: verdicts need the Holm-adjusted p-values of the whole family.
struct PendingComparison {
    enum Units {
        case proportion, score, milliseconds
    }

    var feature: String
    var metric: String
    var test: String
    var first: String
    var second: String
    var count: Int
    var firstMean: Double
    var secondMean: Double
    var interval: ClosedRange<Double>?
    var pValue: Double?
    var firstOnlyPassed: Int?
    var secondOnlyPassed: Int?
    var minimumDetectableEffect: Double?
    var method: String
    var direction: ComparisonVerdict.Direction
    var units: Units

    var difference: Double { firstMean - secondMean }
}

/// The arithmetic of paired (and, for baselines without case data, unpaired) comparisons.
enum ComparisonCalculator {
    /// Adherence on the pairs where both arms have an outcome. Pass/fail pairs get McNemar's exact p, the paired
    /// bootstrap interval of the pass-rate difference, and Connor's MDE at the observed discordance; cases whose
    /// reduced repeats passed in part (pass shares) get the paired test of means on the share differences instead.
    static func adherence(
        feature: String, first: String, second: String, firstValues: [Double?], secondValues: [Double?],
        pairs: [(Int, Int)], options: ReportOptions
    ) -> PendingComparison? {
        var firstShares: [Double] = []
        var secondShares: [Double] = []
        for (i, j) in pairs {
            guard i < firstValues.count, j < secondValues.count, let x = firstValues[i], let y = secondValues[j] else {
                continue
            }
            firstShares.append(x)
            secondShares.append(y)
        }
        guard !firstShares.isEmpty else { return nil }
        let binary = (firstShares + secondShares).allSatisfy { $0 == 0 || $0 == 1 }
        guard binary else {
            var shares = means(
                feature: feature, metric: "adherence", first: first, second: second, firstValues: firstShares,
                secondValues: secondShares, pairs: firstShares.indices.map { ($0, $0) }, direction: .higherIsBetter,
                units: .proportion, options: options)
            shares?.test += " (pass shares)"
            return shares
        }
        return passFail(
            feature: feature, first: first, second: second, firstPasses: firstShares.map { $0 == 1 },
            secondPasses: secondShares.map { $0 == 1 }, options: options)
    }

    private static func passFail(
        feature: String, first: String, second: String, firstPasses: [Bool], secondPasses: [Bool],
        options: ReportOptions
    ) -> PendingComparison? {
        let n = firstPasses.count
        guard n > 0, let test = McNemarExactTest(first: firstPasses, second: secondPasses) else { return nil }
        let bootstrap = PairedBootstrap(firstPasses: firstPasses, secondPasses: secondPasses, configuration: options.bootstrap)
        let firstRate = Double(firstPasses.lazy.filter { $0 }.count) / Double(n)
        let secondRate = Double(secondPasses.lazy.filter { $0 }.count) / Double(n)
        return PendingComparison(
            feature: feature, metric: "adherence", test: "mcnemar-exact", first: first, second: second, count: n,
            firstMean: firstRate, secondMean: secondRate,
            interval: bootstrap.map { $0.lower...$0.upper }, pValue: test.pValue,
            firstOnlyPassed: test.b, secondOnlyPassed: test.c,
            minimumDetectableEffect: MinimumDetectableEffect.pairedProportions(
                discordanceRate: Double(test.discordantPairs) / Double(n), count: n, alpha: options.alpha, power: options.power
            ),
            method: bootstrap.map { methodName($0.method) } ?? "exact",
            direction: .higherIsBetter, units: .proportion
        )
    }

    /// Paired means (scores, latency) on the pairs where both arms have a value: the sign-flip test's p-value and
    /// the paired bootstrap's interval.
    static func means(
        feature: String, metric: String, first: String, second: String, firstValues: [Double?],
        secondValues: [Double?], pairs: [(Int, Int)], direction: ComparisonVerdict.Direction,
        units: PendingComparison.Units, options: ReportOptions
    ) -> PendingComparison? {
        var differences: [Double] = []
        var firstSum = 0.0
        var secondSum = 0.0
        for (i, j) in pairs {
            guard i < firstValues.count, j < secondValues.count, let x = firstValues[i], let y = secondValues[j] else {
                continue
            }
            differences.append(x - y)
            firstSum += x
            secondSum += y
        }
        let n = differences.count
        guard n > 0 else { return nil }
        let bootstrap = PairedBootstrap(differences: differences, configuration: options.bootstrap)
        // The p-value from sign flips, exact at small n where the bootstrap's own p rejects too often; above the
        // resampling limit both are normal approximations and the bootstrap's z-test stands.
        let signFlip = bootstrap != nil && n <= options.bootstrap.maximumResampledCount
            ? PairedSignFlipTest(differences: differences, configuration: options.bootstrap) : nil
        return PendingComparison(
            feature: feature, metric: metric, test: signFlip == nil ? "paired-bootstrap" : "paired-sign-flip",
            first: first, second: second, count: n,
            firstMean: firstSum / Double(n), secondMean: secondSum / Double(n),
            interval: bootstrap.map { $0.lower...$0.upper }, pValue: signFlip?.pValue ?? bootstrap?.pValue,
            minimumDetectableEffect: bootstrap.flatMap {
                MinimumDetectableEffect.pairedMeans(
                    standardDeviationOfDifferences: $0.standardDeviationOfDifferences, count: n,
                    alpha: options.alpha, power: options.power
                )
            },
            method: bootstrap.map { methodName($0.method) } ?? "single-pair",
            direction: direction, units: units
        )
    }

    /// Two independent means with standard errors (a baseline report without per-case data): normal interval
    /// mean₁ − mean₂ ± z·√(SE₁² + SE₂²), its z-test p, and MDE (z_a + z_b)·SE.
    static func unpaired(
        feature: String, metric: String, first: String, second: String,
        firstSample: (mean: Double, standardError: Double?, count: Int),
        secondSample: (mean: Double, standardError: Double?, count: Int),
        direction: ComparisonVerdict.Direction, units: PendingComparison.Units, options: ReportOptions
    ) -> PendingComparison {
        let difference = firstSample.mean - secondSample.mean
        var interval: ClosedRange<Double>?
        var p: Double?
        var mde: Double?
        if let se1 = firstSample.standardError, let se2 = secondSample.standardError {
            let se = (se1 * se1 + se2 * se2).squareRoot()
            let z = NormalDistribution.quantile(1 - (1 - options.bootstrap.effectiveConfidenceLevel) / 2)
            interval = (difference - z * se)...(difference + z * se)
            p = se > 0 ? NormalDistribution.twoSidedPValue(z: difference / se) : (difference == 0 ? 1 : 0)
            if se > 0, options.alpha > 0, options.alpha < 1, options.power > 0, options.power < 1 {
                mde = (NormalDistribution.quantile(1 - options.alpha / 2) + NormalDistribution.quantile(options.power)) * se
            }
        }
        return PendingComparison(
            feature: feature, metric: metric, test: "unpaired-normal", first: first, second: second,
            count: min(firstSample.count, secondSample.count), firstMean: firstSample.mean,
            secondMean: secondSample.mean, interval: interval, pValue: p, minimumDetectableEffect: mde,
            method: "normal-approximation", direction: direction, units: units
        )
    }

    /// Holm-adjusts the family and writes each verdict.
    static func finalize(_ pending: [PendingComparison], options: ReportOptions) -> [PairedComparison] {
        let adjusted = HolmCorrection.adjustedPValues(pending.map { $0.pValue ?? .nan })
        return zip(pending, adjusted).map { comparison, adjustedP in
            let adjustedPValue = comparison.pValue == nil ? nil : adjustedP
            let (unit, format) = presentation(comparison.units)
            let verdict = ComparisonVerdict(
                first: comparison.first, second: comparison.second, difference: comparison.difference,
                interval: comparison.interval, adjustedPValue: adjustedPValue, count: comparison.count,
                minimumDetectableEffect: comparison.minimumDetectableEffect, direction: comparison.direction,
                alpha: options.alpha, confidenceLevel: options.bootstrap.effectiveConfidenceLevel, unit: unit,
                format: format
            )
            let outcome: String
            switch verdict.outcome {
            case .firstBetter: outcome = "first-better"
            case .secondBetter: outcome = "second-better"
            case .noDetectableDifference: outcome = "no-detectable-difference"
            }
            return PairedComparison(
                feature: comparison.feature, metric: comparison.metric, test: comparison.test,
                first: comparison.first, second: comparison.second, count: comparison.count,
                firstMean: comparison.firstMean, secondMean: comparison.secondMean,
                difference: comparison.difference, lower: comparison.interval?.lowerBound,
                upper: comparison.interval?.upperBound, pValue: comparison.pValue, adjustedPValue: adjustedPValue,
                firstOnlyPassed: comparison.firstOnlyPassed, secondOnlyPassed: comparison.secondOnlyPassed,
                minimumDetectableEffect: comparison.minimumDetectableEffect, method: comparison.method,
                direction: comparison.direction == .higherIsBetter ? "higher-is-better" : "lower-is-better",
                outcome: outcome, verdict: verdict.sentence
            )
        }
    }

    /// Pass-rate differences read best in percentage points; scores as they are; latency in ms.
    private static func presentation(_ units: PendingComparison.Units) -> (String, (Double) -> String) {
        switch units {
        case .proportion: ("pp", { String(format: "%.1f", $0 * 100) })
        case .score: ("", ComparisonVerdict.defaultFormat)
        case .milliseconds: ("ms", ComparisonVerdict.defaultFormat)
        }
    }

    static func methodName(_ method: IntervalMethod) -> String {
        switch method {
        case .percentileBootstrap: "percentile-bootstrap"
        case .normalApproximation: "normal-approximation"
        }
    }
}
