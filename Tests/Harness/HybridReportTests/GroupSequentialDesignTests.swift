import Foundation
@testable import HybridReport
import Testing

/// Lan–DeMets boundaries by recursive numerical integration, against published values and a small Monte Carlo.
@Suite("Group-sequential boundaries")
struct GroupSequentialDesignTests {
    @Test("O'Brien–Fleming-like spending, K = 5 equally spaced, α 0.05 two-sided: gsDesign/ldbounds' boundaries")
    func obrienFlemingMatchesPublishedBoundaries() throws {
        let design = try #require(GroupSequentialDesign(spending: .obrienFleming, alpha: 0.05, fractions: [0.2, 0.4, 0.6, 0.8, 1]))
        let bounds = design.boundaries()
        for (found, published) in zip(bounds, [4.877, 3.357, 2.680, 2.290, 2.031]) {
            #expect(abs(found - published) < 0.002, "\(bounds)")
        }
    }

    @Test("Pocock-like spending, K = 5: ldbounds' boundaries, and a Monte Carlo crossing rate of α")
    func pocockSpendsAlpha() throws {
        let fractions = [0.2, 0.4, 0.6, 0.8, 1.0]
        let bounds = try #require(GroupSequentialDesign(spending: .pocock, alpha: 0.05, fractions: fractions)).boundaries()
        for (found, published) in zip(bounds, [2.438, 2.427, 2.410, 2.397, 2.386]) {
            #expect(abs(found - published) < 0.003, "\(bounds)")
        }
        // Brownian motion at the five fractions; the share of paths crossing some boundary is α.
        let share = Self.simulatedCrossing(fractions: fractions, boundaries: bounds, drift: 0, paths: 100_000, seed: 68)
        // SD of the share at 100,000 paths: 0.0007.
        #expect(abs(share - 0.05) < 0.0025, "\(share)")
    }

    /// The share of `paths` simulated score paths (Brownian motion with mean `drift` at t = 1, seen at `fractions`)
    /// whose z crosses its boundary at some look: the Monte Carlo the integration is checked against.
    static func simulatedCrossing(fractions: [Double], boundaries: [Double], drift: Double, paths: Int, seed: UInt64) -> Double {
        var random = SplitMix64(seed: seed)
        var crossed = 0
        for _ in 0..<paths {
            var score = 0.0
            var previous = 0.0
            for (t, c) in zip(fractions, boundaries) {
                score += drift * (t - previous) + (t - previous).squareRoot() * gaussian(&random)
                previous = t
                if abs(score / t.squareRoot()) >= c { crossed += 1; break }
            }
        }
        return Double(crossed) / Double(paths)
    }

    /// A standard normal draw (Box–Muller).
    static func gaussian(_ random: inout SplitMix64) -> Double {
        let u = max(random.nextUnit(), 1e-300)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * random.nextUnit())
    }

    @Test("one look at t = 1 is the fixed-horizon test; unequal looks still spend exactly α")
    func singleLookAndUnequalSpacing() throws {
        let one = try #require(GroupSequentialDesign(spending: .obrienFleming, alpha: 0.05, fractions: [1])).boundaries()
        #expect(abs(one[0] - NormalDistribution.z975) < 1e-6)
        #expect(GroupSequentialDesign(spending: .pocock, alpha: 0.05, fractions: [0.5, 0.3]) == nil)
        #expect(abs(SpendingFunction.pocock.spent(alpha: 0.05, at: 1) - 0.05) < 1e-12)
        #expect(abs(SpendingFunction.obrienFleming.spent(alpha: 0.05, at: 1) - 0.05) < 1e-12)
    }
}
