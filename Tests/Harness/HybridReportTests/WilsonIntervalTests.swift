import HybridReport
import Testing

@Suite struct WilsonIntervalTests {
    @Test func fiveOutOfFiveMatchesThePublishedInterval() throws {
        let interval = try #require(WilsonInterval(successes: 5, trials: 5))
        #expect(abs(interval.lower - 0.5655175352168251) < 1e-12)
        #expect(interval.upper == 1)
        #expect(interval.proportion == 1)
    }

    @Test func zeroSuccessesPinsTheLowerBoundToZero() throws {
        let interval = try #require(WilsonInterval(successes: 0, trials: 10))
        #expect(interval.lower == 0)
        #expect(abs(interval.upper - 0.2775327998628892) < 1e-12)
    }

    @Test func halfIsSymmetricAroundTheProportion() throws {
        let interval = try #require(WilsonInterval(successes: 50, trials: 100))
        #expect(abs(interval.lower - 0.4038315303659956) < 1e-12)
        #expect(abs(interval.upper - 0.5961684696340044) < 1e-12)
    }

    @Test func intervalContainsTheProportionAndShrinksWithN() throws {
        let small = try #require(WilsonInterval(successes: 1, trials: 3))
        #expect(abs(small.lower - 0.06149194472039615) < 1e-12)
        #expect(abs(small.upper - 0.7923403991979523) < 1e-12)
        let large = try #require(WilsonInterval(successes: 100, trials: 300))
        #expect(large.lower < large.proportion && large.proportion < large.upper)
        #expect(large.upper - large.lower < small.upper - small.lower)
    }

    @Test func rejectsImpossibleCounts() {
        #expect(WilsonInterval(successes: 0, trials: 0) == nil)
        #expect(WilsonInterval(successes: 6, trials: 5) == nil)
        #expect(WilsonInterval(successes: -1, trials: 5) == nil)
        #expect(WilsonInterval(successes: 1, trials: 5, z: 0) == nil)
    }
}
