/// A ratio of per-unit sums R = Σyᵢ / Σxᵢ with its delta-method variance, for a metric measured on events while
/// the experiment randomised installs: adherence is Σ adherent events / Σ events over an arm's installs, mean
/// latency Σ latency / Σ answered events.
///
/// Events of one install are correlated (a slow phone is slow every time; a user whose inputs fail the checks fails
/// often), so treating them as independent trials makes the variance far too small. With K installs, x̄ the mean
/// denominator and the linearisation uᵢ = (yᵢ − R·xᵢ) / x̄, Var(R) ≈ s²(u) / K (Deng, Knoblich & Lu, "Applying the
/// Delta Method in Metric Analytics", KDD 2018, §3): the sample variance is taken across installs, the unit that
/// was randomised. Installs with no event for the metric (xᵢ = 0) still count: they are part of the arm.
public struct RatioEstimate: Sendable, Hashable {
    /// Σy / Σx.
    public let ratio: Double
    /// The delta-method variance of `ratio`.
    public let variance: Double
    /// Units (installs).
    public let units: Int
    /// Σx: the events behind the ratio.
    public let denominatorTotal: Double
    /// Per unit, (yᵢ − R·xᵢ) / x̄: what CUPED regresses on the covariate.
    public let linearized: [Double]

    /// The estimate, or nil with fewer than two units, a zero Σx, or a value that is not finite.
    public init?(numerators: [Double], denominators: [Double]) {
        let k = numerators.count
        guard k >= 2, denominators.count == k else { return nil }
        let sumY = numerators.reduce(0, +)
        let sumX = denominators.reduce(0, +)
        guard sumX > 0, sumY.isFinite, sumX.isFinite else { return nil }
        let r = sumY / sumX
        let meanX = sumX / Double(k)
        linearized = zip(numerators, denominators).map { ($0 - r * $1) / meanX }
        ratio = r
        variance = (SampleMoments(linearized).variance ?? 0) / Double(k)
        units = k
        denominatorTotal = sumX
    }
}

/// CUPED (Deng, Xu, Kohavi & Walker, "Improving the Sensitivity of Online Controlled Experiments by Utilizing
/// Pre-Experiment Data", WSDM 2013) for a difference of two ``RatioEstimate``s: each install's linearised value is
/// adjusted by θ·(cᵢ − c̄) where cᵢ is the same install's value of the metric before the experiment (a covariate the
/// treatment cannot have moved), and θ the pooled within-arm regression slope. The adjusted difference is unbiased
/// whatever θ is; its variance is smaller by the share of variance the covariate explains.
public struct CupedAdjustment: Sendable, Hashable {
    /// The regression slope θ.
    public let theta: Double
    /// (R₁ − R₂) − θ·(c̄₁ − c̄₂).
    public let difference: Double
    /// Its variance: s²(u₁ − θc₁)/K₁ + s²(u₂ − θc₂)/K₂.
    public let variance: Double
    /// 1 − adjusted variance / plain variance: the variance reduction achieved.
    public let varianceReduction: Double

    /// The adjustment, or nil when the covariates do not vary or their counts differ from the units'.
    public init?(_ first: RatioEstimate, covariates c1: [Double], _ second: RatioEstimate, covariates c2: [Double]) {
        guard c1.count == first.units, c2.count == second.units else { return nil }
        let m1 = SampleMoments(c1).mean
        let m2 = SampleMoments(c2).mean
        let u1 = SampleMoments(first.linearized).mean
        let u2 = SampleMoments(second.linearized).mean
        var covariance = 0.0
        var spread = 0.0
        for (u, c) in zip(first.linearized, c1) {
            covariance += (u - u1) * (c - m1)
            spread += (c - m1) * (c - m1)
        }
        for (u, c) in zip(second.linearized, c2) {
            covariance += (u - u2) * (c - m2)
            spread += (c - m2) * (c - m2)
        }
        guard spread > 0, covariance.isFinite else { return nil }
        let theta = covariance / spread
        let adjusted1 = zip(first.linearized, c1).map { $0 - theta * $1 }
        let adjusted2 = zip(second.linearized, c2).map { $0 - theta * $1 }
        let variance = (SampleMoments(adjusted1).variance ?? 0) / Double(first.units)
            + (SampleMoments(adjusted2).variance ?? 0) / Double(second.units)
        let plain = first.variance + second.variance
        self.theta = theta
        difference = first.ratio - second.ratio - theta * (m1 - m2)
        self.variance = variance
        varianceReduction = plain > 0 ? 1 - variance / plain : 0
    }
}
