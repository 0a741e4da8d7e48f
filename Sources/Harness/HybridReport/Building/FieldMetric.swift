/// One arm-vs-control figure of a field report, as a ratio of per-install sums (Σ numerator / Σ denominator over an
/// arm's installs): the names the report and `recommend` use, and which direction is better.
struct FieldMetric: Sendable {
    /// The comparison's metric name.
    let name: String
    /// Per install, the numerator and denominator sums.
    let numerator: @Sendable (InstallTotals) -> Double
    let denominator: @Sendable (InstallTotals) -> Double
    /// Per install, the sum of squared per-event values (for the per-event spread that sets τ of a mean).
    let squares: (@Sendable (InstallTotals) -> Double)?
    /// Multiplies the ratio (1,000 for cost per 1,000 requests).
    let scale: Double
    let higherIsBetter: Bool

    /// A rate of events: τ = 5 percentage points.
    var isRate: Bool { squares == nil }

    static let adherence = FieldMetric(
        name: "adherence", numerator: { Double($0.adherent) }, denominator: { Double($0.events) }, squares: nil,
        scale: 1, higherIsBetter: true)
    static let fallbackRate = FieldMetric(
        name: "fallbackRate", numerator: { Double($0.fellBack) }, denominator: { Double($0.events) }, squares: nil,
        scale: 1, higherIsBetter: false)
    static let errorRate = FieldMetric(
        name: "errorRate", numerator: { Double($0.failed) }, denominator: { Double($0.events) }, squares: nil,
        scale: 1, higherIsBetter: false)
    static let latencyMean = FieldMetric(
        name: "latencyMeanMs", numerator: { $0.latencySum }, denominator: { Double($0.answered) },
        squares: { $0.latencySquares }, scale: 1, higherIsBetter: false)
    static let ttftMean = FieldMetric(
        name: "ttftMeanMs", numerator: { $0.ttftSum }, denominator: { Double($0.ttftCount) },
        squares: { $0.ttftSquares }, scale: 1, higherIsBetter: false)
    static let costPer1000 = FieldMetric(
        name: "costPer1000USD", numerator: { $0.costUSD }, denominator: { Double($0.events) },
        squares: { $0.costSquares }, scale: 1_000, higherIsBetter: false)

    /// Every metric with an always-valid test, in report order.
    static let sequential = [adherence, fallbackRate, errorRate, latencyMean, ttftMean, costPer1000]

    /// The metric's ratio over `installs`, scaled. With `cap`, an install with more events than it weighs as
    /// `cap` events at its own rate (numerator and denominator scaled alike), so no single install dominates.
    func estimate(_ installs: [InstallTotals], cap: Double? = nil) -> RatioEstimate? {
        var numerators: [Double] = []
        var denominators: [Double] = []
        numerators.reserveCapacity(installs.count)
        denominators.reserveCapacity(installs.count)
        for install in installs {
            let weight = Self.capFactor(denominator(install), cap: cap)
            numerators.append(numerator(install) * scale * weight)
            denominators.append(denominator(install) * weight)
        }
        return RatioEstimate(numerators: numerators, denominators: denominators)
    }

    /// The factor that brings `events` down to `cap`; 1 without a cap or below it.
    static func capFactor(_ events: Double, cap: Double?) -> Double {
        guard let cap, events > cap, events > 0 else { return 1 }
        return cap / events
    }

    /// How many times its group's median install an install may weigh (see ``weightCap(_:)``).
    static let heavyInstallMultiple = 3.0

    /// The weight cap of one group (an arm, or an arm within a segment): `heavyInstallMultiple` times the median of
    /// its installs' denominators. Heavy users, kiosks and test devices send hundreds of times the median's events;
    /// as a ratio of sums weights installs by their events, a few of them can be most of an arm, and the
    /// delta-method variance cannot see that with few installs. A multiple of the median, unlike a high quantile,
    /// still caps when 5 or 10 % of installs are heavy (a 95th percentile then *is* a heavy install). Each group is
    /// capped at its own median, so the estimand, a per-request rate in which no install weighs more than three
    /// median installs of its group, does not move when a treatment changes how much everyone uses the feature: the
    /// cap scales with the usage, and the weights keep their proportions (a cap shared by both groups would weigh
    /// the heavier-using arm's installs more evenly than the control's, a bias that grows with n).
    func weightCap(_ installs: [InstallTotals]) -> Double? {
        Self.weightCap(installs.map(denominator))
    }

    /// The cap over installs' event counts (those above 0): `heavyInstallMultiple` times their median; nil with
    /// fewer than two.
    static func weightCap(_ counts: [Double]) -> Double? {
        let weights = counts.filter { $0 > 0 }.sorted()
        guard weights.count >= 2 else { return nil }
        let middle = weights.count / 2
        let median = weights.count.isMultiple(of: 2) ? (weights[middle - 1] + weights[middle]) / 2 : weights[middle]
        return heavyInstallMultiple * median
    }

    /// Kish's effective number of installs, (Σw)² / Σw², with each install weighted by its (capped) denominator:
    /// the installs' count when they weigh alike, far fewer when a few carry most events.
    func effectiveInstalls(_ installs: [InstallTotals], cap: Double?) -> Double {
        var sum = 0.0
        var squares = 0.0
        for install in installs {
            let w = denominator(install) * Self.capFactor(denominator(install), cap: cap)
            sum += w
            squares += w * w
        }
        return squares > 0 ? sum * sum / squares : 0
    }

    /// The mixing scale τ of the mSPRT: the effect worth finding. 5 points for rates; half the pooled per-event
    /// standard deviation for means.
    func tau(_ first: [InstallTotals], _ second: [InstallTotals], caps: (Double?, Double?) = (nil, nil)) -> Double? {
        guard let squares else { return 0.05 }
        var n = 0.0
        var sum = 0.0
        var sumSquares = 0.0
        for (group, cap) in [(first, caps.0), (second, caps.1)] {
            for install in group {
                let weight = Self.capFactor(denominator(install), cap: cap)
                n += denominator(install) * weight
                sum += numerator(install) * weight
                sumSquares += squares(install) * weight
            }
        }
        guard n > 1 else { return nil }
        let mean = sum / n
        let variance = max(0, (sumSquares - n * mean * mean) / (n - 1))
        let tau = variance.squareRoot() * scale / 2
        return tau > 0 ? tau : nil
    }

    /// Each install's value of the metric before its first exposure to the experiment (its pre-period ratio), for
    /// the installs of both groups, with an indicator of whether it has one. Installs without one get the mean of
    /// the installs that have one, in both groups alike (the indicator then absorbs any difference between the
    /// two kinds of install); nil when no install of either group has pre-period events for it.
    func covariates(
        _ first: [String], _ second: [String], prePeriod: [String: InstallTotals]
    ) -> (first: [CupedCovariate], second: [CupedCovariate])? {
        var values: [String: Double] = [:]
        for id in first + second {
            guard let totals = prePeriod[id], denominator(totals) > 0 else { continue }
            values[id] = numerator(totals) * scale / denominator(totals)
        }
        guard !values.isEmpty else { return nil }
        let imputed = values.values.reduce(0, +) / Double(values.count)
        func covariates(_ ids: [String]) -> [CupedCovariate] {
            ids.map { id in values[id].map { CupedCovariate(value: $0, present: true) } ?? CupedCovariate(value: imputed, present: false) }
        }
        return (covariates(first), covariates(second))
    }
}
