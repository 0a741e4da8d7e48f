import Foundation
import HybridReport
import Testing

@Suite struct McNemarExactTestTests {
    @Test func eightAgainstOneIsTwentyOver512() throws {
        let test = try #require(McNemarExactTest(b: 8, c: 1))
        #expect(abs(test.pValue - 20.0 / 512.0) < 1e-12)
        #expect(test.discordantPairs == 9)
    }

    @Test func noDiscordantPairsGivesOne() throws {
        #expect(try #require(McNemarExactTest(b: 0, c: 0)).pValue == 1)
    }

    @Test func equalCountsCapAtOne() throws {
        #expect(try #require(McNemarExactTest(b: 7, c: 7)).pValue == 1)
    }

    @Test func isSymmetricInBAndC() throws {
        for (b, c) in [(8, 1), (0, 5), (13, 30), (250, 199)] {
            let forward = try #require(McNemarExactTest(b: b, c: c)).pValue
            let backward = try #require(McNemarExactTest(b: c, c: b)).pValue
            #expect(forward == backward)
        }
    }

    @Test func matchesScipyForAModerateCase() throws {
        // scipy.stats.binomtest(40, 100, 0.5).pvalue
        #expect(abs(try #require(McNemarExactTest(b: 40, c: 60)).pValue - 0.05688793364098089) < 1e-12)
    }

    @Test func largeCountsStayFiniteAndAgreeWithTheChiSquareApproximation() throws {
        let test = try #require(McNemarExactTest(b: 3000, c: 3100))
        // scipy.stats.binomtest(3000, 6100, 0.5).pvalue
        #expect(abs(test.pValue - 0.2049495446515585) < 1e-9)
        // Continuity-corrected χ²(1) = (|b − c| − 1)² / (b + c); its tail is erfc(√(χ²/2)).
        let chiSquare = pow(Double(abs(3000 - 3100) - 1), 2) / 6100
        let approximate = erfc((chiSquare / 2).squareRoot())
        #expect(abs(test.pValue - approximate) < 1e-3)

        let huge = try #require(McNemarExactTest(b: 500_000, c: 501_500))
        #expect(huge.pValue.isFinite && huge.pValue > 0 && huge.pValue < 1)
        let hugeChi: Double = 1499.0 * 1499.0 / 1_001_500
        #expect(abs(huge.pValue - erfc((hugeChi / 2).squareRoot())) < 1e-3)
    }

    @Test func countsDiscordantPairsFromOutcomes() throws {
        let first = [true, true, false, true, false, true]
        let second = [false, true, true, false, false, false]
        let test = try #require(McNemarExactTest(first: first, second: second))
        #expect(test.b == 3)
        #expect(test.c == 1)
        #expect(McNemarExactTest(first: [true], second: []) == nil)
        #expect(McNemarExactTest(b: -1, c: 2) == nil)
    }
}
