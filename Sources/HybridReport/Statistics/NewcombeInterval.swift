/// Newcombe's hybrid-score interval for the difference of two independent proportions, p₁ − p₂ (Newcombe 1998,
/// "Interval estimation for the difference between independent proportions", Statistics in Medicine 17, 873–890,
/// method 10): the Wilson intervals of each proportion, combined by the square-and-add rule.
///
/// Field arms are unpaired (different installs), so McNemar and the paired bootstrap do not apply. Unlike the Wald
/// interval it behaves at 0/n and n/n and keeps close to its nominal coverage at the small n of a fresh rollout.
/// The p-value is the pooled two-proportion z-test's, the test the interval approximately inverts.
public struct NewcombeInterval: Sendable, Hashable {
    /// p₁ − p₂.
    public let difference: Double
    /// Lower bound, in [−1, 1].
    public let lower: Double
    /// Upper bound, in [−1, 1].
    public let upper: Double
    /// Two-sided p-value of "p₁ = p₂" (pooled z-test); 1 when both samples are all successes or all failures.
    public let pValue: Double

    /// The interval for `successes1/trials1 − successes2/trials2`, or nil when either sample is empty or a count is
    /// impossible.
    public init?(successes1: Int, trials1: Int, successes2: Int, trials2: Int, z: Double = NormalDistribution.z975) {
        guard let first = WilsonInterval(successes: successes1, trials: trials1, z: z),
            let second = WilsonInterval(successes: successes2, trials: trials2, z: z)
        else { return nil }
        let p1 = first.proportion
        let p2 = second.proportion
        difference = p1 - p2
        let below = ((p1 - first.lower) * (p1 - first.lower) + (second.upper - p2) * (second.upper - p2)).squareRoot()
        let above = ((first.upper - p1) * (first.upper - p1) + (p2 - second.lower) * (p2 - second.lower)).squareRoot()
        lower = max(-1, difference - below)
        upper = min(1, difference + above)
        pValue = Self.pooledPValue(successes1, trials1, successes2, trials2)
    }

    private static func pooledPValue(_ s1: Int, _ n1: Int, _ s2: Int, _ n2: Int) -> Double {
        let pooled = Double(s1 + s2) / Double(n1 + n2)
        let se = (pooled * (1 - pooled) * (1 / Double(n1) + 1 / Double(n2))).squareRoot()
        guard se > 0 else { return 1 }
        let z = (Double(s1) / Double(n1) - Double(s2) / Double(n2)) / se
        return NormalDistribution.twoSidedPValue(z: z)
    }
}
