import Foundation

/// How many units a stated effect needs before a run or an experiment, under each design HybridAI decides with: the
/// one calculation behind `hybrid plan` and the recommender's "about N cases would show it".
///
/// Adherence is a pass rate: a baseline `p` and a difference `effect`, the other arm at `p + effect`. Offline, the
/// case is the unit and both arms answer every case (a paired one-sided test, as `recommend` claims); in the field,
/// the install is (two groups, equal sizes, one event each: more events per install narrow the interval less than
/// their count, as installs differ).
public struct SampleSizePlan: Sendable {
    /// One design's need.
    public struct Need: Sendable {
        /// "paired, one-sided", "always-valid (mixture SPRT, τ 0.05)", …
        public var design: String
        /// Cases (offline) or installs per group (field); nil when the effect cannot be reached.
        public var units: Int?
    }

    public let baseline: Double
    public let effect: Double
    public let alpha: Double
    public let power: Double

    /// A plan; `baseline` and `baseline + effect` in [0, 1], `effect` not 0, `alpha` and `power` in (0, 1).
    public init?(baseline: Double, effect: Double, alpha: Double = 0.05, power: Double = 0.80) {
        let other = baseline + effect
        guard (0...1).contains(baseline), (0...1).contains(other), effect != 0, effect.isFinite,
            alpha > 0, alpha < 1, power > 0, power < 1
        else { return nil }
        self.baseline = baseline
        self.effect = effect
        self.alpha = alpha
        self.power = power
    }

    /// Variance of one unit's difference: the two arms' Bernoulli variances (independent arms: the most a paired
    /// case can vary when nothing is known of how the arms agree).
    var unitVariance: Double {
        let other = baseline + effect
        return baseline * (1 - baseline) + other * (1 - other)
    }

    /// Offline: cases for a paired one-sided test at α with the plan's power, for a per-case difference with mean
    /// `mean` and standard deviation `sd` (what `recommend` says a claim needs).
    public static func pairedCases(mean: Double, standardDeviation sd: Double, alpha: Double, power: Double = 0.80) -> Int? {
        guard mean > 0, sd > 0 else { return nil }
        let z = NormalDistribution.quantile(1 - alpha) + NormalDistribution.quantile(power)
        // A difference near zero needs an astronomical number of cases; a count past a billion says only that.
        let needed = pow(z * sd / mean, 2).rounded(.up)
        return needed.isFinite ? Int(min(needed, 1e9)) : nil
    }

    /// Offline cases, both arms answering every case.
    public var offline: Need {
        Need(design: "offline, paired on cases, one-sided", units: Self.pairedCases(mean: abs(effect), standardDeviation: unitVariance.squareRoot(), alpha: alpha, power: power))
    }

    /// Field installs per group read once at the end: the fixed-horizon two-sided z-test (the most any valid
    /// single-look test has).
    public func fixedHorizon() -> Need {
        let z = NormalDistribution.quantile(1 - alpha / 2) + NormalDistribution.quantile(power)
        let units = (z * z * unitVariance / (effect * effect)).rounded(.up)
        return Need(design: "field, fixed horizon (one look at the end, α for this metric alone)", units: units.isFinite ? Int(units) : nil)
    }

    /// Field installs per group at the horizon of a planned design (the report's `FieldDesign`): `looks` equally
    /// spaced looks with `spending`'s Lan–DeMets boundaries at the share of α the planned looks spend on the metric
    /// (`share`: 0.9 of α for the planned looks × 0.8 for a primary metric), the fewest whose chance of crossing at
    /// some look reaches the plan's power.
    public func planned(
        looks: Int, spending: SpendingFunction = .obrienFleming, share: Double = 0.9 * 0.8,
        shareText: String = "the metric primary (0.8 of the 90 % of α the planned looks spend)"
    ) -> Need {
        let count = max(1, looks)
        let design = "field, planned: \(count) look\(count == 1 ? "" : "s") (\(spending.rawValue)), " + shareText
        guard let gs = GroupSequentialDesign(
            spending: spending, alpha: alpha * share, fractions: (1...count).map { Double($0) / Double(count) })
        else { return Need(design: design, units: nil) }
        let bounds = gs.boundaries()
        // Power grows with the drift (the z the whole horizon would give), so solve for the drift once and turn it
        // into installs, instead of integrating at every candidate count.
        var low = 0.0, high = 20.0
        guard gs.power(drift: high, boundaries: bounds) >= power else { return Need(design: design, units: nil) }
        for _ in 0..<40 where high - low > 1e-4 {
            let mid = (low + high) / 2
            if gs.power(drift: mid, boundaries: bounds) >= power { high = mid } else { low = mid }
        }
        let units = (high * high * unitVariance / (effect * effect)).rounded(.up)
        return Need(design: design, units: units.isFinite && units < 1e9 ? max(2, Int(units)) : nil)
    }

    /// The fewest n ≥ 2 for which `reaches` holds (it holds for every larger n), or nil past 100 million.
    static func fewest(_ reaches: (Int) -> Bool) -> Int? {
        var high = 2
        while !reaches(high) {
            guard high < 100_000_000 else { return nil }
            high *= 2
        }
        var low = high / 2
        while low + 1 < high {
            let mid = (low + high) / 2
            if reaches(mid) { high = mid } else { low = mid }
        }
        return high
    }

    /// Field installs per group for the always-valid test the field report runs (mixture SPRT, τ = 5 points for
    /// rates), read at any look: the fewest whose minimum detectable effect (`MixtureSPRT`) is at most the effect.
    public func alwaysValid(tau: Double = 0.05) -> Need {
        let design = "field, always-valid (mixture SPRT, τ \(tau)), any number of looks"
        func detects(_ n: Int) -> Bool {
            guard let mde = MixtureSPRT.minimumDetectableEffect(variance: unitVariance / Double(n), tau: tau, alpha: alpha, power: power)
            else { return false }
            return mde <= abs(effect)
        }
        return Need(design: design, units: Self.fewest(detects))
    }
}
