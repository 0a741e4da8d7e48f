/// The smallest true difference a paired comparison at this n would detect with the given power: the number a
/// report prints next to "no detectable difference", so a null result is read as "smaller than this, if any".
///
/// All functions use a two-sided test at `alpha` (default 0.05) with `power` (default 0.80), that is
/// z_a = Φ⁻¹(1 − α/2) ≈ 1.960 and z_b = Φ⁻¹(power) ≈ 0.842, and return nil for n < 2, a non-positive spread, or
/// `alpha` / `power` outside (0, 1).
public enum MinimumDetectableEffect {
    /// Paired means (scores, latency): MDE = (z_a + z_b) · SD_d / √n, where SD_d is the standard deviation of the
    /// per-case differences — the normal-approximation power formula for a paired (one-sample) z-test, e.g.
    /// Chow, Shao & Wang, *Sample Size Calculations in Clinical Research* (2008), §3.1. In the metric's units.
    public static func pairedMeans(
        standardDeviationOfDifferences sd: Double, count n: Int, alpha: Double = 0.05, power: Double = 0.80
    ) -> Double? {
        guard n >= 2, sd.isFinite, sd > 0, let (za, zb) = criticalValues(alpha: alpha, power: power) else {
            return nil
        }
        return (za + zb) * sd / Double(n).squareRoot()
    }

    /// Paired proportions (pass rates compared with McNemar's test): the smallest |p_first − p_second| detectable
    /// when a fraction ψ of the cases are discordant (use the observed (b + c) / n).
    ///
    /// Connor (1987), "Sample size for testing differences in proportions for the paired-sample design",
    /// Biometrics 43(1), 207–211, gives n = [z_a·√ψ + z_b·√(ψ − δ²)]² / δ² for a difference δ = p₁₀ − p₀₁.
    /// Solving that for δ (a quadratic in δ after isolating the square root) gives
    /// δ = √ψ · (z_a·√n + z_b·√(n − z_a² + z_b²)) / (n + z_b²). nil also when the δ found exceeds ψ, i.e. when
    /// even "every discordant case favours one arm" would not reach the power at this n.
    public static func pairedProportions(
        discordanceRate psi: Double, count n: Int, alpha: Double = 0.05, power: Double = 0.80
    ) -> Double? {
        guard n >= 2, psi.isFinite, psi > 0, psi <= 1, let (za, zb) = criticalValues(alpha: alpha, power: power)
        else { return nil }
        let nd = Double(n)
        let radicand = nd - za * za + zb * zb
        guard radicand >= 0 else { return nil }
        let delta = psi.squareRoot() * (za * nd.squareRoot() + zb * radicand.squareRoot()) / (nd + zb * zb)
        return delta <= psi ? delta : nil
    }

    /// Connor's (1987) sample size for paired proportions, the inverse of ``pairedProportions(discordanceRate:count:alpha:power:)``
    /// (as a real number; round up for planning), or nil unless 0 < |δ| ≤ ψ ≤ 1.
    public static func connorSampleSize(
        discordanceRate psi: Double, difference delta: Double, alpha: Double = 0.05, power: Double = 0.80
    ) -> Double? {
        let d = abs(delta)
        guard psi.isFinite, d.isFinite, d > 0, d <= psi, psi <= 1,
            let (za, zb) = criticalValues(alpha: alpha, power: power)
        else { return nil }
        let root = za * psi.squareRoot() + zb * (psi - d * d).squareRoot()
        return root * root / (d * d)
    }

    static func criticalValues(alpha: Double, power: Double) -> (Double, Double)? {
        guard alpha > 0, alpha < 1, power > 0, power < 1 else { return nil }
        return (NormalDistribution.quantile(1 - alpha / 2), NormalDistribution.quantile(power))
    }
}
