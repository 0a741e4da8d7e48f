/// The sample-ratio-mismatch check: are the distinct installs seen per rollout arm consistent with the configured
/// percentages? A broken split (an arm that crashes before it reports, a bucketing bug, a cache that serves one arm)
/// biases every comparison, so reports show this first and make no effect claim while it fails.
///
/// Pearson's chi-square goodness-of-fit test over the arms plus the "default" group (installs outside every arm get
/// the feature's defaults and take the remaining percentage). Flagged at p < 0.001, the threshold experimentation
/// platforms use (Fabijan et al., "Diagnosing Sample Ratio Mismatch in Online Controlled Experiments", KDD 2019).
public struct SampleRatioMismatch: Sendable, Hashable, Codable {
    /// The threshold below which the split is reported as broken.
    public static let threshold = 0.001

    /// One group of the split: its configured share and what was observed.
    public struct Group: Sendable, Hashable, Codable {
        /// The rollout arm's name, or `default` for installs outside every arm.
        public var name: String
        /// Configured share in percent (0–100).
        public var expectedPercent: Double
        /// Distinct installs seen.
        public var observed: Int
        /// Installs expected at this total: total × percent / 100.
        public var expected: Double

        /// A group; see the properties.
        public init(name: String, expectedPercent: Double, observed: Int, expected: Double) {
            self.name = name
            self.expectedPercent = expectedPercent
            self.observed = observed
            self.expected = expected
        }
    }

    /// Every group with a positive configured share, plus any group observed without one.
    public var groups: [Group]
    /// Pearson's χ² = Σ (observed − expected)² / expected.
    public var chiSquare: Double
    /// Groups − 1.
    public var degreesOfFreedom: Int
    /// P(χ² ≥ observed) under the configured split.
    public var pValue: Double
    /// True when `pValue` < ``threshold`` (or installs landed in a group configured at 0 %).
    public var mismatch: Bool

    /// The check for `observed` distinct installs per group against `expectedPercent` (summing to 100; a missing
    /// remainder is added as `default`). nil without any install or without two groups.
    public init?(observed: [String: Int], expectedPercent: [String: Double]) {
        var shares = expectedPercent
        let configured = shares.values.reduce(0, +)
        if configured < 100 { shares["default", default: 0] += 100 - configured }
        let total = observed.values.reduce(0, +)
        let names = Set(shares.keys).union(observed.keys).sorted()
        guard total > 0, names.count >= 2 else { return nil }
        var groups: [Group] = []
        var statistic = 0.0
        var impossible = false
        for name in names {
            let percent = shares[name] ?? 0
            let seen = observed[name] ?? 0
            let expected = Double(total) * percent / 100
            groups.append(Group(name: name, expectedPercent: percent, observed: seen, expected: expected))
            if expected > 0 {
                statistic += (Double(seen) - expected) * (Double(seen) - expected) / expected
            } else if seen > 0 {
                impossible = true
            }
        }
        let df = max(1, groups.filter { $0.expected > 0 }.count - 1)
        self.groups = groups
        chiSquare = statistic
        degreesOfFreedom = df
        pValue = impossible ? 0 : ChiSquareDistribution.survival(statistic, degreesOfFreedom: df)
        mismatch = impossible || pValue < Self.threshold
    }
}
