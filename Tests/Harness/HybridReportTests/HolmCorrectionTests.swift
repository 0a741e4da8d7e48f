import HybridReport
import Testing

@Suite struct HolmCorrectionTests {
    @Test func matchesAHandWorkedExampleInOriginalOrder() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06 by monotonicity.
        let adjusted = HolmCorrection.adjustedPValues([0.01, 0.04, 0.03, 0.005])
        let expected = [0.03, 0.06, 0.06, 0.02]
        #expect(adjusted.count == 4)
        for (a, e) in zip(adjusted, expected) {
            #expect(abs(a - e) < 1e-15)
        }
    }

    @Test func capsAtOneAndStaysMonotone() {
        let adjusted = HolmCorrection.adjustedPValues([0.5, 0.6, 0.2])
        #expect(adjusted[0] == 1 && adjusted[1] == 1)
        #expect(abs(adjusted[2] - 0.6) < 1e-15)
        #expect(adjusted.allSatisfy { $0 <= 1 })
        let input = [0.001, 0.2, 0.04, 0.03, 0.9]
        let output = HolmCorrection.adjustedPValues(input)
        for i in input.indices {
            #expect(output[i] >= input[i])
            for j in input.indices where input[i] <= input[j] {
                #expect(output[i] <= output[j])
            }
        }
    }

    @Test func singleComparisonIsUnchangedAndNaNCountsAsOne() {
        #expect(HolmCorrection.adjustedPValues([0.03]) == [0.03])
        #expect(HolmCorrection.adjustedPValues([]) == [])
        let adjusted = HolmCorrection.adjustedPValues([0.01, .nan])
        #expect(adjusted == [0.02, 1])
    }
}
