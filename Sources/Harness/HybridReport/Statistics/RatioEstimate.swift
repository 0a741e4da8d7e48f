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

extension RatioEstimate {
    /// The independent-events variance of a share `rate` over `events`, shrunk to q̃ = (s + ½)/(n + 1): a floor
    /// under a share's variance where installs agree perfectly (100 % against 0 %, or every answer over a limit),
    /// so such a group still has a test; it differs from the plain share by less than 1/n.
    public static func shareVarianceFloor(rate: Double, events: Double) -> Double {
        guard events > 0 else { return 0 }
        let q = (rate * events + 0.5) / (events + 1)
        return q * (1 - q) / events
    }
}

/// One install's CUPED covariate: its value of the metric before its first exposure to the experiment, or the
/// value imputed alike in every arm when it has none, and whether it had one.
public struct CupedCovariate: Sendable, Hashable {
    /// The install's pre-period value, or the imputed one.
    public var value: Double
    /// Whether the install had pre-period events (false: `value` is imputed).
    public var present: Bool

    /// A covariate; see the properties.
    public init(value: Double, present: Bool) {
        self.value = value
        self.present = present
    }
}

/// CUPED (Deng, Xu, Kohavi & Walker, "Improving the Sensitivity of Online Controlled Experiments by Utilizing
/// Pre-Experiment Data", WSDM 2013) for a difference of two ``RatioEstimate``s: each install's linearised value is
/// adjusted by θ·(cᵢ − c̄) where cᵢ is the same install's value of the metric before the experiment (a covariate the
/// treatment cannot have moved), and θ the pooled within-arm regression slope. An install without a pre-period
/// value has one imputed (the same way in both arms) and an indicator joins the regression (Deng et al. §3.4), so
/// installs with and without history are each adjusted towards their own mean. The adjusted difference is unbiased
/// whatever θ is, as long as the covariates cannot depend on the arm; its variance is smaller by the share of
/// variance the covariates explain.
public struct CupedAdjustment: Sendable, Hashable {
    /// The regression slope θ on the covariate's value.
    public let theta: Double
    /// (R₁ − R₂) − θ·(c̄₁ − c̄₂) (and the indicator's term).
    public let difference: Double
    /// Its variance: s²(u₁ − θ·c₁)/K₁ + s²(u₂ − θ·c₂)/K₂.
    public let variance: Double
    /// 1 − adjusted variance / plain variance: the variance reduction achieved.
    public let varianceReduction: Double

    /// The adjustment, or nil when the covariates do not vary or their counts differ from the units'.
    public init?(_ first: RatioEstimate, covariates c1: [CupedCovariate], _ second: RatioEstimate, covariates c2: [CupedCovariate]) {
        guard c1.count == first.units, c2.count == second.units else { return nil }
        let groups = [(first.linearized, c1.map(Self.regressors)), (second.linearized, c2.map(Self.regressors))]
        guard let theta = Self.pooledSlopes(groups) else { return nil }
        func adjusted(_ u: [Double], _ x: [[Double]]) -> (values: [Double], covariateMean: Double) {
            let values = zip(u, x).map { u, x in u - theta[0] * x[0] - theta[1] * x[1] }
            let shift = x.isEmpty ? 0 : x.reduce(0.0) { $0 + theta[0] * $1[0] + theta[1] * $1[1] } / Double(x.count)
            return (values, shift)
        }
        let a1 = adjusted(groups[0].0, groups[0].1)
        let a2 = adjusted(groups[1].0, groups[1].1)
        let variance = (SampleMoments(a1.values).variance ?? 0) / Double(first.units)
            + (SampleMoments(a2.values).variance ?? 0) / Double(second.units)
        let plain = first.variance + second.variance
        self.theta = theta[0]
        difference = first.ratio - second.ratio - (a1.covariateMean - a2.covariateMean)
        self.variance = variance
        varianceReduction = plain > 0 ? 1 - variance / plain : 0
    }

    private static func regressors(_ covariate: CupedCovariate) -> [Double] {
        [covariate.value, covariate.present ? 1 : 0]
    }

    /// The least-squares slopes of u on the two regressors, pooled over the groups' within-group deviations; the
    /// indicator's slope is 0 when it does not vary within the groups (every install has history, or none). nil
    /// when the value does not vary either.
    private static func pooledSlopes(_ groups: [([Double], [[Double]])]) -> [Double]? {
        var sxx = [[0.0, 0.0], [0.0, 0.0]]
        var sxu = [0.0, 0.0]
        for (u, x) in groups where !u.isEmpty {
            let uMean = u.reduce(0, +) / Double(u.count)
            let xMean = (0..<2).map { j in x.reduce(0.0) { $0 + $1[j] } / Double(x.count) }
            for (ui, xi) in zip(u, x) {
                let d = [xi[0] - xMean[0], xi[1] - xMean[1]]
                for j in 0..<2 {
                    sxu[j] += d[j] * (ui - uMean)
                    for k in 0..<2 { sxx[j][k] += d[j] * d[k] }
                }
            }
        }
        let determinant = sxx[0][0] * sxx[1][1] - sxx[0][1] * sxx[1][0]
        let scale = max(sxx[0][0] * sxx[1][1], .leastNonzeroMagnitude)
        if sxx[1][1] > 0, determinant > 1e-9 * scale {
            let t0 = (sxx[1][1] * sxu[0] - sxx[0][1] * sxu[1]) / determinant
            let t1 = (sxx[0][0] * sxu[1] - sxx[1][0] * sxu[0]) / determinant
            return t0.isFinite && t1.isFinite ? [t0, t1] : nil
        }
        guard sxx[0][0] > 0, sxu[0].isFinite else { return nil }
        return [sxu[0] / sxx[0][0], 0]
    }
}
