import HybridReport
import Testing

@Suite struct SplitMix64Tests {
    @Test func matchesTheReferenceStreamForSeedZero() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func indicesStayInRangeAndCoverItEvenly() {
        var rng = SplitMix64(seed: 7)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 {
            counts[rng.nextIndex(below: 7)] += 1
        }
        // Expected 10,000 each, SD ≈ 93; ±600 is over 6 SD.
        #expect(counts.allSatisfy { abs($0 - 10_000) < 600 })
        #expect(rng.nextIndex(below: 1) == 0)
        #expect(rng.nextIndex(below: 0) == 0)
    }
}
