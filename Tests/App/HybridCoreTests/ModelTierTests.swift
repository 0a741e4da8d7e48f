import HybridCore
import Testing

@Test func tiersAreOrderedFromMostToLeastPrivate() {
    #expect(ModelTier.onDevice < .privateCloud)
    #expect(ModelTier.privateCloud < .thirdParty)
    #expect(ModelTier.allCases.sorted() == [.onDevice, .privateCloud, .thirdParty])
}
