/// The shared engine behind ``BootstrapMeanInterval`` and ``PairedBootstrap``: an interval for the mean of a
/// finite sample and the two-sided p-value of "true mean = 0" obtained by inverting that interval.
struct MeanResampler {
    struct Result {
        var mean: Double
        var standardDeviation: Double
        var lower: Double
        var upper: Double
        var standardError: Double
        var pValue: Double
        var method: IntervalMethod
        var confidenceLevel: Double
    }

    /// nil when fewer than two values or any value is not finite.
    static func run(_ values: [Double], configuration: BootstrapConfiguration) -> Result? {
        guard values.count >= 2, values.allSatisfy(\.isFinite) else { return nil }
        let moments = SampleMoments(values)
        guard let sd = moments.standardDeviation else { return nil }
        let level = configuration.effectiveConfidenceLevel
        if values.count > configuration.maximumResampledCount {
            return normal(mean: moments.mean, sd: sd, count: values.count, level: level)
        }
        return bootstrap(values, mean: moments.mean, sd: sd, configuration: configuration, level: level)
    }

    private static func normal(mean: Double, sd: Double, count: Int, level: Double) -> Result {
        let se = sd / Double(count).squareRoot()
        let z = NormalDistribution.quantile(1 - (1 - level) / 2)
        let p: Double
        if se > 0 {
            p = NormalDistribution.twoSidedPValue(z: mean / se)
        } else {
            p = mean == 0 ? 1 : 0
        }
        return Result(
            mean: mean, standardDeviation: sd, lower: mean - z * se, upper: mean + z * se,
            standardError: se, pValue: p, method: .normalApproximation, confidenceLevel: level
        )
    }

    private static func bootstrap(
        _ values: [Double], mean: Double, sd: Double, configuration: BootstrapConfiguration, level: Double
    ) -> Result {
        let b = configuration.effectiveResamples
        let n = values.count
        var rng = SplitMix64(seed: configuration.seed)
        var means = [Double](repeating: 0, count: b)
        var atOrBelowZero = 0
        var atOrAboveZero = 0
        values.withUnsafeBufferPointer { buffer in
            for r in 0..<b {
                var sum = 0.0
                for _ in 0..<n {
                    sum += buffer[rng.nextIndex(below: n)]
                }
                let resampledMean = sum / Double(n)
                means[r] = resampledMean
                if resampledMean <= 0 { atOrBelowZero += 1 }
                if resampledMean >= 0 { atOrAboveZero += 1 }
            }
        }
        means.sort()
        let alpha = 1 - level
        let bootstrapSD = SampleMoments(means).standardDeviation ?? 0
        // p is the smallest α whose percentile interval excludes 0, with the +1 correction so a finite number of
        // resamples never reports p = 0 (Davison & Hinkley 1997, §4.2); at B = 10,000 the floor is about 2e-4.
        let tail = Double(min(atOrBelowZero, atOrAboveZero) + 1) / Double(b + 1)
        return Result(
            mean: mean,
            standardDeviation: sd,
            lower: Percentiles.quantile(ofSorted: means, alpha / 2),
            upper: Percentiles.quantile(ofSorted: means, 1 - alpha / 2),
            standardError: bootstrapSD,
            pValue: min(1, 2 * tail),
            method: .percentileBootstrap(resamples: b, seed: configuration.seed),
            confidenceLevel: level
        )
    }
}
