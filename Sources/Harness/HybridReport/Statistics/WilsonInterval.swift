/// The Wilson score interval for a binomial proportion (Wilson 1927), used for constraint adherence rates.
///
/// Unlike the Wald interval it stays inside [0, 1] and does not collapse to zero width at 0/n or n/n, which is
/// exactly where small eval sets live (5/5 passes gives about [0.566, 1]). There is no interval without trials,
/// so the initializer returns nil for n = 0.
public struct WilsonInterval: Sendable, Hashable {
    /// Number of successes (for example, cases whose output met the constraint); for a mean share, rounded.
    public let successes: Int
    /// Number of trials, always at least 1.
    public let trials: Int
    /// The observed proportion successes / trials.
    public let proportion: Double
    /// Lower bound, in [0, proportion]; exactly 0 when there are no successes.
    public let lower: Double
    /// Upper bound, in [proportion, 1]; exactly 1 when every trial succeeded.
    public let upper: Double
    /// The z value the interval was built with (1.959963984540054 for 95 %).
    public let z: Double

    /// The interval for `successes` out of `trials`, or nil when `trials` < 1, `successes` is outside 0...trials,
    /// or `z` is not positive and finite.
    ///
    /// - Parameter z: the normal critical value; the default gives a two-sided 95 % interval. For another level
    ///   pass `NormalDistribution.quantile(1 - alpha / 2)`.
    public init?(successes: Int, trials: Int, z: Double = NormalDistribution.z975) {
        guard trials >= 1, (0...trials).contains(successes) else { return nil }
        self.init(proportion: Double(successes) / Double(trials), trials: trials, z: z)
    }

    /// The interval for the mean of per-unit values in [0, 1] (a case's reduced repeats), one trial per unit; NaN
    /// values (units without one) are left out. nil when no value is left.
    public init?(unitValues values: [Double], z: Double = NormalDistribution.z975) {
        let present = values.filter { !$0.isNaN }
        guard !present.isEmpty else { return nil }
        let mean = present.reduce(0, +) / Double(present.count)
        self.init(proportion: min(1, max(0, mean)), trials: present.count, z: z)
    }

    /// The interval for a mean pass share `proportion` over `trials` units whose own values lie in [0, 1] (a case's
    /// pass share over its repeats), or nil when `trials` < 1 or `proportion` is outside [0, 1]. Such a unit's
    /// variance is at most p(1 − p), the Bernoulli variance at the same mean, so the interval is at least as wide as
    /// it needs to be; it is the binomial interval exactly when every unit is 0 or 1.
    public init?(proportion p: Double, trials: Int, z: Double = NormalDistribution.z975) {
        guard trials >= 1, p >= 0, p <= 1, z.isFinite, z > 0 else { return nil }
        self.successes = Int((p * Double(trials)).rounded())
        self.trials = trials
        self.z = z
        let n = Double(trials)
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let halfWidth = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        proportion = p
        // At 0/n and n/n the formula gives 0 and 1 only up to rounding; pin them so reports show exact bounds.
        lower = p == 0 ? 0 : max(0, min(p, centre - halfWidth))
        upper = p == 1 ? 1 : min(1, max(p, centre + halfWidth))
    }
}
