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

    /// The weight cap of a comparison: the 95th percentile (nearest rank) of the installs' denominators over both
    /// groups. Heavy users, kiosks and test devices send hundreds of times the median's events; as a ratio of sums
    /// weights installs by their events, one of them can be most of an arm, and the delta-method variance cannot
    /// see that with few installs. Capping at a high quantile is what experimentation platforms do for such users
    /// (winsorising); it changes nothing for the 95 % of installs below the cap.
    func weightCap(_ first: [InstallTotals], _ second: [InstallTotals]) -> Double? {
        let weights = (first + second).map(denominator).filter { $0 > 0 }.sorted()
        guard weights.count >= 2 else { return nil }
        let rank = Int((0.95 * Double(weights.count)).rounded(.up)) - 1
        return weights[min(max(rank, 0), weights.count - 1)]
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
    func tau(_ first: [InstallTotals], _ second: [InstallTotals], cap: Double? = nil) -> Double? {
        guard let squares else { return 0.05 }
        var n = 0.0
        var sum = 0.0
        var sumSquares = 0.0
        for install in first + second {
            let weight = Self.capFactor(denominator(install), cap: cap)
            n += denominator(install) * weight
            sum += numerator(install) * weight
            sumSquares += squares(install) * weight
        }
        guard n > 1 else { return nil }
        let mean = sum / n
        let variance = max(0, (sumSquares - n * mean * mean) / (n - 1))
        let tau = variance.squareRoot() * scale / 2
        return tau > 0 ? tau : nil
    }

    /// Each install's value of the metric before the experiment (its pre-period ratio), for the installs of both
    /// groups; the ratio pooled over both groups for installs without one. nil when no install of either group has
    /// pre-period events for it.
    func covariates(
        _ first: [String], _ second: [String], prePeriod: [String: InstallTotals]
    ) -> (first: [Double], second: [Double])? {
        var sumY = 0.0
        var sumX = 0.0
        for id in first + second {
            guard let totals = prePeriod[id] else { continue }
            sumY += numerator(totals) * scale
            sumX += denominator(totals)
        }
        guard sumX > 0 else { return nil }
        let pooled = sumY / sumX
        func values(_ ids: [String]) -> [Double] {
            ids.map { id in
                guard let totals = prePeriod[id], denominator(totals) > 0 else { return pooled }
                return numerator(totals) * scale / denominator(totals)
            }
        }
        return (values(first), values(second))
    }
}
