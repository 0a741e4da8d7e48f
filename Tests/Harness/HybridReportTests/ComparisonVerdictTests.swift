import HybridReport
import Testing

@Suite struct ComparisonVerdictTests {
    @Test func intervalSpanningZeroSaysNoDetectableDifference() {
        let verdict = ComparisonVerdict(
            first: "local", second: "cloud", difference: 0.05, interval: -0.05...0.15, adjustedPValue: 0.62,
            count: 40, minimumDetectableEffect: 0.21, direction: .higherIsBetter
        )
        #expect(verdict.outcome == .noDetectableDifference)
        #expect(verdict.sentence.contains("no detectable difference at n = 40"))
        #expect(verdict.sentence.contains("MDE ≈ 0.21"))
        #expect(!verdict.sentence.contains("better"))
    }

    @Test func tooFewPairsNeverNameAWinnerHoweverNarrowTheInterval() {
        // A percentile bootstrap over 3 pairs has 10 distinct resamples: its interval is falsely narrow.
        let verdict = ComparisonVerdict(
            first: "bullet", second: "concise", difference: 0.17, interval: 0.14...0.20, adjustedPValue: 0.0001,
            count: 3, minimumDetectableEffect: nil, direction: .higherIsBetter
        )
        #expect(verdict.outcome == .noDetectableDifference)
        #expect(verdict.sentence.contains("no detectable difference at n = 3"))
        #expect(verdict.sentence.contains("at least 10 are needed"))
        let enough = ComparisonVerdict(
            first: "bullet", second: "concise", difference: 0.17, interval: 0.14...0.20, adjustedPValue: 0.0001,
            count: 10, minimumDetectableEffect: 0.05, direction: .higherIsBetter
        )
        #expect(enough.outcome == .firstBetter)
    }

    @Test func lowerLatencyWinsWithPositiveAmountAndInterval() {
        let verdict = ComparisonVerdict(
            first: "local", second: "cloud", difference: -120, interval: -160 ... -80, adjustedPValue: 0.002,
            count: 200, minimumDetectableEffect: 30, direction: .lowerIsBetter, unit: "ms"
        )
        #expect(verdict.outcome == .firstBetter)
        #expect(verdict.sentence == "local better than cloud by 120 ms (95% CI [80, 160] ms, p_adj = 0.002)")
    }

    @Test func higherScoreOfTheSecondArmNamesTheSecondArm() {
        let verdict = ComparisonVerdict(
            first: "local", second: "cloud", difference: -0.15, interval: -0.25 ... -0.05, adjustedPValue: 0.0001,
            count: 100, minimumDetectableEffect: 0.08, direction: .higherIsBetter
        )
        #expect(verdict.outcome == .secondBetter)
        #expect(verdict.sentence == "cloud better than local by 0.15 (95% CI [0.05, 0.25], p_adj < 0.001)")
    }

    @Test func anAdjustedPAboveAlphaOverridesAnIntervalExcludingZero() {
        let verdict = ComparisonVerdict(
            first: "a", second: "b", difference: 0.1, interval: 0.01...0.2, adjustedPValue: 0.09,
            count: 30, minimumDetectableEffect: nil, direction: .higherIsBetter
        )
        #expect(verdict.outcome == .noDetectableDifference)
        #expect(verdict.sentence.contains("no detectable difference at n = 30 (MDE not estimable"))
    }

    @Test func noIntervalNeverNamesAWinner() {
        let verdict = ComparisonVerdict(
            first: "a", second: "b", difference: 0.5, interval: nil, adjustedPValue: 0.001,
            count: 3, minimumDetectableEffect: nil, direction: .higherIsBetter
        )
        #expect(verdict.outcome == .noDetectableDifference)
    }

    @Test func judgesAPairedBootstrapWithItsOwnMDE() throws {
        let differences = (0..<30).map { Double($0 % 5) - 2 }  // mean 0
        let comparison = try #require(PairedBootstrap(differences: differences))
        let verdict = ComparisonVerdict(
            first: "a", second: "b", comparison: comparison, adjustedPValue: comparison.pValue,
            direction: .lowerIsBetter, unit: "ms"
        )
        #expect(verdict.outcome == .noDetectableDifference)
        #expect(verdict.sentence.hasPrefix("a vs b: no detectable difference at n = 30 (MDE ≈ "))
    }
}
