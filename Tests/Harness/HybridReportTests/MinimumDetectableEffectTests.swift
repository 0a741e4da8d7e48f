import HybridReport
import Testing

@Suite struct MinimumDetectableEffectTests {
    @Test func pairedMeansUsesZAlphaPlusZBetaOverRootN() throws {
        let mde = try #require(MinimumDetectableEffect.pairedMeans(standardDeviationOfDifferences: 1, count: 100))
        #expect(abs(mde - (1.959963984540054 + 0.8416212335729143) / 10) < 1e-12)
    }

    @Test func effectsShrinkAsNGrows() throws {
        var previousMeans = Double.infinity
        var previousProportions = Double.infinity
        for n in [30, 50, 100, 400, 1_000, 10_000] {
            let means = try #require(MinimumDetectableEffect.pairedMeans(standardDeviationOfDifferences: 3, count: n))
            let proportions = try #require(MinimumDetectableEffect.pairedProportions(discordanceRate: 0.3, count: n))
            #expect(means < previousMeans)
            #expect(proportions < previousProportions)
            previousMeans = means
            previousProportions = proportions
        }
    }

    @Test func pairedProportionsInvertsConnorsSampleSize() throws {
        for (psi, n) in [(0.2, 100), (0.05, 2_000), (0.6, 30)] {
            let delta = try #require(MinimumDetectableEffect.pairedProportions(discordanceRate: psi, count: n))
            let back = try #require(MinimumDetectableEffect.connorSampleSize(discordanceRate: psi, difference: delta))
            #expect(abs(back - Double(n)) < 1e-6 * Double(n))
        }
    }

    @Test func undefinedWithoutSpreadOrWhenNoEffectIsReachable() {
        #expect(MinimumDetectableEffect.pairedProportions(discordanceRate: 0, count: 100) == nil)
        // With 5 cases and 10 % discordance no difference (at most 0.1) reaches 80 % power.
        #expect(MinimumDetectableEffect.pairedProportions(discordanceRate: 0.1, count: 5) == nil)
        #expect(MinimumDetectableEffect.pairedMeans(standardDeviationOfDifferences: 0, count: 10) == nil)
        #expect(MinimumDetectableEffect.pairedMeans(standardDeviationOfDifferences: 1, count: 10, alpha: 0) == nil)
    }
}
