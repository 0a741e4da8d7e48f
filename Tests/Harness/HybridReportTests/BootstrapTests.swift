import Foundation
import HybridReport
import Testing

@Suite struct BootstrapTests {
    /// A standard normal draw by Box–Muller, from the deterministic generator.
    private static func normal(_ rng: inout SplitMix64) -> Double {
        let u1 = (Double(rng.next() >> 11) + 1) / 9_007_199_254_740_992  // (0, 1]
        let u2 = Double(rng.next() >> 11) / 9_007_199_254_740_992
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// n paired cases whose true mean difference first − second is `effect`; a large per-case base value is shared
    /// by both arms, as real cases differ in difficulty.
    private static func pairedSample(n: Int, effect: Double, seed: UInt64) -> ([Double], [Double]) {
        var rng = SplitMix64(seed: seed)
        var first = [Double]()
        var second = [Double]()
        for _ in 0..<n {
            let base = 500 + 200 * normal(&rng)
            first.append(base + effect + normal(&rng))
            second.append(base + normal(&rng))
        }
        return (first, second)
    }

    private static func coverage(n: Int, configuration: (UInt64) -> BootstrapConfiguration) throws -> Int {
        let effect = 0.3
        var covered = 0
        for seed in UInt64(0)..<200 {
            let (first, second) = pairedSample(n: n, effect: effect, seed: 10_000 + seed)
            let result = try #require(PairedBootstrap(first: first, second: second, configuration: configuration(seed)))
            if result.lower <= effect && effect <= result.upper { covered += 1 }
        }
        return covered
    }

    @Test func percentileIntervalCoversTheTrueDifferenceAboutNinetyFivePercentOfTheTime() throws {
        let covered = try Self.coverage(n: 50) { BootstrapConfiguration(resamples: 1_000, seed: $0) }
        #expect((182...198).contains(covered), "covered \(covered) of 200")
    }

    @Test func normalApproximationAlsoCoversAboutNinetyFivePercent() throws {
        let covered = try Self.coverage(n: 2_500) { BootstrapConfiguration(seed: $0) }
        #expect((182...198).contains(covered), "covered \(covered) of 200")
    }

    @Test func switchesToTheNormalApproximationAboveTheThreshold() throws {
        let (first, second) = Self.pairedSample(n: 2_001, effect: 0, seed: 1)
        let large = try #require(PairedBootstrap(first: first, second: second))
        #expect(large.method == .normalApproximation)
        let small = try #require(PairedBootstrap(first: Array(first.prefix(2_000)), second: Array(second.prefix(2_000))))
        #expect(small.method == .percentileBootstrap(resamples: 10_000, seed: BootstrapConfiguration.defaultSeed))
        // Both methods estimate the same standard error at this size.
        #expect(abs(large.standardError / small.standardError - 1) < 0.1)
    }

    @Test func sameSeedGivesIdenticalResultsAndPairingRemovesCaseVariance() throws {
        let (first, second) = Self.pairedSample(n: 60, effect: 2, seed: 3)
        let a = try #require(PairedBootstrap(first: first, second: second))
        let b = try #require(PairedBootstrap(first: first, second: second))
        #expect(a == b)
        // Case base values have SD 200 but cancel in the differences (SD ≈ √2).
        #expect(a.standardDeviationOfDifferences < 3)
        #expect(a.intervalExcludesZero)
        #expect(a.pValue < 0.01)
        #expect(a.lower < a.meanDifference && a.meanDifference < a.upper)
    }

    @Test func noEffectGivesALargePValueAndAnIntervalAroundZero() throws {
        let zeros = PairedBootstrap(differences: [0, 0, 0, 0])
        #expect(zeros?.pValue == 1)
        #expect(zeros?.intervalExcludesZero == false)
        let (first, second) = Self.pairedSample(n: 80, effect: 0, seed: 11)
        let result = try #require(PairedBootstrap(first: first, second: second))
        #expect(result.lower < 0 && 0 < result.upper)
        #expect(result.pValue > 0.05)
    }

    @Test func rejectsUnpairedOrNonFiniteInput() {
        #expect(PairedBootstrap(first: [1, 2], second: [1]) == nil)
        #expect(PairedBootstrap(first: [1], second: [1]) == nil)
        #expect(PairedBootstrap(first: [1, .nan], second: [1, 2]) == nil)
        #expect(BootstrapMeanInterval([1, .infinity]) == nil)
        #expect(BootstrapMeanInterval([1]) == nil)
    }

    @Test func singleSampleMeanIntervalIsCloseToTheTInterval() throws {
        let values = (0..<40).map { Double($0 % 7) }
        let interval = try #require(BootstrapMeanInterval(values))
        let moments = SampleMoments(values)
        #expect(interval.mean == moments.mean)
        let halfWidth = (interval.upper - interval.lower) / 2
        let normalHalfWidth = 1.96 * (moments.standardErrorOfMean ?? 0)
        // The percentile bootstrap is slightly narrower (SD/√n with divisor n, no t quantile); within 10 %.
        #expect(abs(halfWidth / normalHalfWidth - 1) < 0.1)
        #expect(interval.lower < interval.mean && interval.mean < interval.upper)
        #expect(interval.confidenceLevel == 0.95)
    }

    @Test func passRateDifferenceMatchesTheDiscordantCounts() throws {
        // b = 8 (first passes only), c = 1 (second passes only), 11 concordant pairs: p₁ − p₂ = 7/20.
        let first = Array(repeating: true, count: 8) + [false] + Array(repeating: true, count: 11)
        let second = Array(repeating: false, count: 8) + [true] + Array(repeating: true, count: 11)
        let interval = try #require(PairedBootstrap(firstPasses: first, secondPasses: second))
        #expect(abs(interval.meanDifference - 0.35) < 1e-12)
        #expect(interval.lower > 0 && interval.upper <= 0.65)
        #expect(PairedBootstrap(firstPasses: [true], secondPasses: []) == nil)
    }
}
