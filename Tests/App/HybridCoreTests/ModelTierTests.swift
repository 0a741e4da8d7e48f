@testable import HybridCore
@testable import HybridValidation
import Testing

@Test func tiersAreOrderedFromMostToLeastPrivate() {
    #expect(ModelTier.onDevice < .privateCloud)
    #expect(ModelTier.privateCloud < .thirdParty)
    #expect(ModelTier.allCases.sorted() == [.onDevice, .privateCloud, .thirdParty])
}
