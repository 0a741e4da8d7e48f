import HybridReport
import Testing

@Suite struct NormalDistributionTests {
    @Test func quantileMatchesReferenceValues() {
        #expect(abs(NormalDistribution.quantile(0.975) - 1.959964) < 1e-6)
        #expect(abs(NormalDistribution.quantile(0.975) - NormalDistribution.z975) < 1e-14)
        #expect(NormalDistribution.quantile(0.5) == 0)
        // scipy.stats.norm.ppf
        #expect(abs(NormalDistribution.quantile(0.8) - 0.8416212335729143) < 1e-12)
        #expect(abs(NormalDistribution.quantile(0.02425) - -1.97296105) < 1e-7)
        #expect(abs(NormalDistribution.quantile(1e-10) - -6.3613409) < 1e-6)
        #expect(abs(NormalDistribution.quantile(1e-300) - -37.0470963) < 1e-6)
    }

    @Test func quantileIsAntisymmetricAndInvertsTheCDF() {
        for p in [1e-8, 0.001, 0.1, 0.3, 0.42, 0.6, 0.9, 0.999] {
            #expect(abs(NormalDistribution.quantile(p) + NormalDistribution.quantile(1 - p)) < 1e-9)
            #expect(abs(NormalDistribution.cdf(NormalDistribution.quantile(p)) - p) < 1e-12 * max(1, 1 / p))
        }
    }

    @Test func quantileEdges() {
        #expect(NormalDistribution.quantile(0) == -.infinity)
        #expect(NormalDistribution.quantile(1) == .infinity)
        #expect(NormalDistribution.quantile(1.5).isNaN)
        #expect(NormalDistribution.quantile(-0.1).isNaN)
    }

    @Test func twoSidedPValueOfTheCriticalValueIsFivePercent() {
        #expect(abs(NormalDistribution.twoSidedPValue(z: NormalDistribution.z975) - 0.05) < 1e-12)
        #expect(abs(NormalDistribution.twoSidedPValue(z: -NormalDistribution.z975) - 0.05) < 1e-12)
        #expect(NormalDistribution.twoSidedPValue(z: 0) == 1)
    }
}
