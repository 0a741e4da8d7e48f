extension MinimumDetectableEffect {
    /// Two independent proportions (field arms): MDE = (z_a + z_b) · √(p̄(1 − p̄)(1/n₁ + 1/n₂)), the normal
    /// approximation power formula for a two-sample test of proportions (Chow, Shao & Wang, *Sample Size
    /// Calculations in Clinical Research* (2008), §4.2), with p̄ the pooled rate. nil for n₁ or n₂ < 2 or p̄ at 0 or 1.
    public static func twoProportions(
        pooledRate p: Double, counts n1: Int, _ n2: Int, alpha: Double = 0.05, power: Double = 0.80
    ) -> Double? {
        guard p > 0, p < 1 else { return nil }
        return twoMeans(standardDeviation: (p * (1 - p)).squareRoot(), counts: n1, n2, alpha: alpha, power: power)
    }

    /// Two independent means: MDE = (z_a + z_b) · σ · √(1/n₁ + 1/n₂) (Chow, Shao & Wang 2008, §3.2), in the
    /// metric's units. nil for n₁ or n₂ < 2 or a non-positive σ.
    public static func twoMeans(
        standardDeviation sd: Double, counts n1: Int, _ n2: Int, alpha: Double = 0.05, power: Double = 0.80
    ) -> Double? {
        guard n1 >= 2, n2 >= 2, sd.isFinite, sd > 0, let (za, zb) = criticalValues(alpha: alpha, power: power) else {
            return nil
        }
        return (za + zb) * sd * (1 / Double(n1) + 1 / Double(n2)).squareRoot()
    }
}
