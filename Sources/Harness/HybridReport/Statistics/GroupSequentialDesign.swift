import Foundation

/// A two-sided group-sequential test with symmetric boundaries on the z scale, at information fractions
/// t₁ < … < t_k ≤ 1, from a Lan–DeMets spending function: look j rejects when |z_j| ≥ c_j, and the c_j are chosen
/// so that, under "no difference", the chance of a first crossing at look j is α(t_j) − α(t_{j−1}).
///
/// The crossing probabilities come from the standard recursive numerical integration over the continuation
/// regions (Armitage, McPherson & Rowe 1969; Jennison & Turnbull, *Group Sequential Methods*, 2000, ch. 19): with
/// independent increments, the score S_j = z_j √t_j is Brownian motion at time t_j, so the sub-density of S_j on
/// the continuation region is the previous one convolved with N(0, t_j − t_{j−1}). Simpson's rule on
/// ``gridPoints`` points per look; the boundaries agree with gsDesign/ldbounds to 3 decimals.
public struct GroupSequentialDesign: Sendable, Hashable {
    /// The spending function.
    public var spending: SpendingFunction
    /// The two-sided level spent over all looks.
    public var alpha: Double
    /// Information fractions of the looks, increasing, in (0, 1].
    public var fractions: [Double]

    /// Simpson points per look (odd).
    static let gridPoints = 241
    /// A boundary above this is no boundary (the look spends nothing measurable).
    static let largestBoundary = 12.0

    /// A design, or nil when α is outside (0, 1) or the fractions are not increasing in (0, 1].
    public init?(spending: SpendingFunction, alpha: Double, fractions: [Double]) {
        guard alpha > 0, alpha < 1, !fractions.isEmpty,
            fractions.allSatisfy({ $0 > 0 && $0 <= 1 }),
            zip(fractions, fractions.dropFirst()).allSatisfy({ $0 < $1 })
        else { return nil }
        self.spending = spending
        self.alpha = alpha
        self.fractions = fractions
    }

    /// The boundary of every look, on the z scale (|z| ≥ c rejects).
    public func boundaries() -> [Double] {
        var bounds: [Double] = []
        var region = Region.start
        var spentBefore = 0.0
        for (j, t) in fractions.enumerated() {
            let previous = j == 0 ? 0 : fractions[j - 1]
            let increment = max(0, spending.spent(alpha: alpha, at: t) - spentBefore)
            let c = boundary(spending: increment, t: t, step: t - previous, region: region)
            bounds.append(c)
            spentBefore += region.crossing(at: c * t.squareRoot(), step: t - previous)
            region = region.next(limit: c * t.squareRoot(), step: t - previous)
        }
        return bounds
    }

    /// The chance that some look crosses its boundary in `boundaries` (from ``boundaries()``) when the z statistic at
    /// t = 1 has mean `drift` (the effect over the standard error the whole horizon would give): the design's power.
    public func power(drift: Double, boundaries: [Double]) -> Double {
        var region = Region.start
        var crossed = 0.0
        for (j, t) in fractions.enumerated() where j < boundaries.count {
            let step = t - (j == 0 ? 0 : fractions[j - 1])
            let limit = boundaries[j] * t.squareRoot()
            crossed += region.crossing(at: limit, step: step, shift: drift * step)
            region = region.next(limit: limit, step: step, shift: drift * step)
        }
        return min(1, crossed)
    }

    /// The c whose crossing probability from `region` is `increment`, by bisection (crossing falls as c grows).
    private func boundary(spending increment: Double, t: Double, step: Double, region: Region) -> Double {
        guard increment > 0 else { return Self.largestBoundary }
        var low = 0.0
        var high = Self.largestBoundary
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if region.crossing(at: mid * t.squareRoot(), step: step) > increment { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The sub-density of the score S on the last look's continuation region, at Simpson points with weights.
    private struct Region {
        /// Points of S.
        var points: [Double]
        /// Density × Simpson weight at each point; their sum is the chance of having continued so far.
        var mass: [Double]
        /// Before the first look: S = 0 with probability 1.
        static let start = Region(points: [0], mass: [1])

        /// P(continued so far and |S_next| ≥ limit), S_next = S + shift + N(0, step) (shift: the drift over the step,
        /// 0 under "no difference").
        func crossing(at limit: Double, step: Double, shift: Double = 0) -> Double {
            let sd = step.squareRoot()
            var total = 0.0
            for (s, m) in zip(points, mass) {
                let centre = s + shift
                total += m * (NormalDistribution.cdf((-limit - centre) / sd) + NormalDistribution.cdf((centre - limit) / sd))
            }
            return total
        }

        /// The sub-density of S_next on (−limit, limit).
        func next(limit: Double, step: Double, shift: Double = 0) -> Region {
            let n = GroupSequentialDesign.gridPoints
            let h = 2 * limit / Double(n - 1)
            let sd = step.squareRoot()
            let norm = 1 / (sd * (2 * Double.pi).squareRoot())
            var newPoints = [Double](repeating: 0, count: n)
            var newMass = [Double](repeating: 0, count: n)
            for i in 0..<n {
                let x = -limit + Double(i) * h
                var density = 0.0
                for (s, m) in zip(points, mass) {
                    let d = (x - s - shift) / sd
                    density += m * norm * exp(-0.5 * d * d)
                }
                let simpson = (i == 0 || i == n - 1) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
                newPoints[i] = x
                newMass[i] = density * simpson * h / 3
            }
            return Region(points: newPoints, mass: newMass)
        }
    }
}
