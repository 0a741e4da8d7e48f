import HybridReport
import Testing

@Suite struct PercentilesTests {
    @Test func matchesNumpyType7() throws {
        // numpy.percentile([3, 1, 4, 1, 5, 9, 2, 6], [50, 95, 99, 25]) → 3.5, 7.95, 8.79, 1.75
        let p = try #require(Percentiles([3, 1, 4, 1, 5, 9, 2, 6]))
        #expect(abs(p.p50 - 3.5) < 1e-12)
        #expect(abs(p.p95 - 7.95) < 1e-12)
        #expect(abs(p.p99 - 8.79) < 1e-12)
        #expect(abs(p.quantile(0.25) - 1.75) < 1e-12)
        #expect(p.minimum == 1 && p.maximum == 9)
        #expect(p.quantile(0) == 1 && p.quantile(1) == 9)
    }

    @Test func singleValueIsEveryPercentile() throws {
        let p = try #require(Percentiles([42]))
        #expect(p.p50 == 42 && p.p95 == 42 && p.p99 == 42)
    }

    @Test func emptyOrAllNaNGivesNil() {
        #expect(Percentiles([]) == nil)
        #expect(Percentiles([.nan]) == nil)
        #expect(Percentiles(presorted: [2, 1]) == nil)
    }

    @Test func dropsNaNBeforeRanking() throws {
        let p = try #require(Percentiles([.nan, 10, 20, .nan]))
        #expect(p.count == 2)
        #expect(p.p50 == 15)
    }

    /// Large samples take a radix sort (``DoubleRadixSort``); it must give the comparison sort's order bit for bit,
    /// negatives, infinities, duplicates and signed zeros included, or reports would change with sample size.
    @Test func largeSamplesSortExactlyLikeTheStandardLibrary() throws {
        var rng = SplitMix64(seed: 7)
        func uniform() -> Double { rng.nextUnit() }
        var values = (0..<5_000).map { index -> Double in
            switch index % 7 {
            case 0: return -1_000 * uniform()
            case 1: return Double(index % 13)
            case 2: return 1e-300 * uniform()
            default: return 1e6 * uniform()
            }
        }
        values += [.infinity, -.infinity, 0, .greatestFiniteMagnitude, -.leastNonzeroMagnitude]
        let p = try #require(Percentiles(values))
        #expect(p.sorted.map(\.bitPattern) == values.sorted().map(\.bitPattern))
        let signedZeros = values + [-0.0, 0, -0.0]
        #expect(try #require(Percentiles(signedZeros)).sorted.map(\.bitPattern) == signedZeros.sorted().map(\.bitPattern))
    }
}
