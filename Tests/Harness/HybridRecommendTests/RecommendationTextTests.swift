@testable import HybridRecommend
import Testing

/// The quality difference against the current route is worded by its sign, so "drop" never carries a gain.
@Suite struct RecommendationTextTests {
    @Test func aNegativeDropIsSaidAsAGainWithItsIntervalTurned() {
        let improvement = MeanEstimate(count: 30, mean: -0.867, lower: -0.95, upper: -0.7)
        let text = RecommendationText.qualityChange(improvement)
        #expect(text == "quality gain vs the current route 0.867 [95% CI 0.700, 0.950]")
        #expect(!text.contains("drop") && !text.contains("-"))
    }

    @Test func aPositiveDropStaysADrop() {
        let worse = MeanEstimate(count: 30, mean: 0.1, lower: 0.02, upper: 0.2)
        #expect(RecommendationText.qualityChange(worse) == "quality drop vs the current route 0.100 [95% CI 0.020, 0.200]")
    }
}
