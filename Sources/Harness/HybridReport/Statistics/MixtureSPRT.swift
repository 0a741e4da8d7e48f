import Foundation

/// The mixture sequential probability ratio test (mSPRT) for a difference of two independent means or proportions:
/// an always-valid p-value and confidence interval, so a report may be looked at after every batch of field
/// events without inflating false positives (Johari, Koomen, Pekelis & Walsh, "Always Valid Inference: Continuous
/// Monitoring of A/B Tests", Operations Research 70(3), 2022, §4; the method behind Optimizely's stats engine).
///
/// With θ̂ the observed difference, V its variance (s₁²/n₁ + s₂²/n₂) and a normal mixing distribution N(0, τ²) over
/// the true difference, the mixture likelihood ratio of H₀: θ = θ₀ is
/// Λ = √(V / (V + τ²)) · exp(τ²(θ̂ − θ₀)² / (2V(V + τ²))). By Ville's inequality P(Λ ever ≥ 1/α | H₀) ≤ α, so
/// p = min(1, 1/Λ) is valid at whatever moment it is read, and {θ₀ : Λ(θ₀) < 1/α} is the always-valid interval
/// θ̂ ± √(V(V + τ²)/τ² · (ln((V + τ²)/V) − 2 ln α)). The price is width: wider than a fixed-horizon interval at
/// the same n. τ should be the size of effect worth finding (the report uses 5 percentage points for rates and
/// half the pooled standard deviation for means).
public struct MixtureSPRT: Sendable, Hashable, Codable {
    /// θ̂, first minus second.
    public var difference: Double
    /// Always-valid lower bound at level 1 − α.
    public var lower: Double
    /// Always-valid upper bound at level 1 − α.
    public var upper: Double
    /// Always-valid p-value of "no difference".
    public var pValue: Double
    /// The mixing standard deviation τ used.
    public var tau: Double

    /// The test for a difference `difference` with variance `variance`, or nil when the variance or τ is not
    /// positive and finite or α is outside (0, 1).
    public init?(difference: Double, variance: Double, tau: Double, alpha: Double = 0.05) {
        guard difference.isFinite, variance.isFinite, variance > 0, tau.isFinite, tau > 0, alpha > 0, alpha < 1
        else { return nil }
        let t2 = tau * tau
        let v = variance
        let logLambda = 0.5 * log(v / (v + t2)) + t2 * difference * difference / (2 * v * (v + t2))
        let halfWidth = (v * (v + t2) / t2 * (log((v + t2) / v) - 2 * log(alpha))).squareRoot()
        self.difference = difference
        lower = difference - halfWidth
        upper = difference + halfWidth
        pValue = min(1, exp(-logLambda))
        self.tau = tau
    }

    /// Two independent proportions s₁/n₁ − s₂/n₂ with V = p̃₁(1 − p̃₁)/n₁ + p̃₂(1 − p̃₂)/n₂, where p̃ = (s + ½)/(n + 1):
    /// the plug-in variance vanishes at 0/n and n/n (100 % against 0 % would have no test at all), the shrunk
    /// rates keep it positive and differ from s/n by less than 1/n. nil for an empty sample.
    public static func proportions(
        successes1: Int, trials1: Int, successes2: Int, trials2: Int, tau: Double = 0.05, alpha: Double = 0.05
    ) -> MixtureSPRT? {
        guard trials1 > 0, trials2 > 0 else { return nil }
        let p1 = Double(successes1) / Double(trials1)
        let p2 = Double(successes2) / Double(trials2)
        let q1 = (Double(successes1) + 0.5) / Double(trials1 + 1)
        let q2 = (Double(successes2) + 0.5) / Double(trials2 + 1)
        let variance = q1 * (1 - q1) / Double(trials1) + q2 * (1 - q2) / Double(trials2)
        return MixtureSPRT(difference: p1 - p2, variance: variance, tau: tau, alpha: alpha)
    }

    /// The smallest true difference this test would declare at level `alpha` with probability `power` when read
    /// now, at variance `variance`: it rejects once |θ̂| exceeds the always-valid half-width c, so with θ̂ ~ N(δ, V)
    /// the power at δ is about Φ((δ − c)/√V), and δ = c + z_power·√V. Pass α divided by the number of comparisons
    /// for a verdict under Holm (the first step of Holm tests the smallest p-value at α/m). nil for a variance or τ
    /// that is not positive and finite.
    public static func minimumDetectableEffect(variance: Double, tau: Double, alpha: Double, power: Double = 0.80)
        -> Double?
    {
        guard variance.isFinite, variance > 0, tau.isFinite, tau > 0, alpha > 0, alpha < 1, power > 0, power < 1
        else { return nil }
        let t2 = tau * tau
        let halfWidth = (variance * (variance + t2) / t2 * (log((variance + t2) / variance) - 2 * log(alpha))).squareRoot()
        return halfWidth + NormalDistribution.quantile(power) * variance.squareRoot()
    }
}
