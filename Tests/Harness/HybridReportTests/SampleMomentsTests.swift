import HybridReport
import Testing

@Suite struct SampleMomentsTests {
    @Test func meanAndSampleVariance() throws {
        let m = SampleMoments([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(m.count == 8)
        #expect(m.mean == 5)
        #expect(abs(try #require(m.variance) - 32.0 / 7.0) < 1e-12)
        #expect(abs(try #require(m.standardErrorOfMean) - (32.0 / 7.0 / 8.0).squareRoot()) < 1e-12)
    }

    @Test func staysAccurateForALargeOffset() throws {
        let m = SampleMoments([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16])
        #expect(abs(try #require(m.variance) - 30) < 1e-6)
    }

    @Test func fewerThanTwoValuesHasNoSpread() {
        #expect(SampleMoments([3]).variance == nil)
        #expect(SampleMoments().standardDeviation == nil)
    }
}
