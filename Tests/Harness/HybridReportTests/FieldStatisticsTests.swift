import Foundation
import HybridReport
import Testing

/// The unpaired methods field reports use, against published worked examples and closed forms.
@Suite struct FieldStatisticsTests {
    /// Critical values from any χ² table (e.g. NIST/SEMATECH e-Handbook §1.3.6.7.4); for 2 degrees of freedom the
    /// survival function is exactly e^(−x/2).
    @Test func chiSquareSurvivalMatchesTableValues() {
        #expect(abs(ChiSquareDistribution.survival(3.841458820694124, degreesOfFreedom: 1) - 0.05) < 1e-12)
        #expect(abs(ChiSquareDistribution.survival(10.827566170662733, degreesOfFreedom: 1) - 0.001) < 1e-13)
        #expect(abs(ChiSquareDistribution.survival(7.814727903251178, degreesOfFreedom: 3) - 0.05) < 1e-12)
        #expect(abs(ChiSquareDistribution.survival(18.307038053275146, degreesOfFreedom: 10) - 0.05) < 1e-12)
        for x in [0.5, 3.0, 9.0, 40.0] {
            #expect(abs(ChiSquareDistribution.survival(x, degreesOfFreedom: 2) - Foundation.exp(-x / 2)) < 1e-14)
        }
        #expect(ChiSquareDistribution.survival(0, degreesOfFreedom: 4) == 1)
    }

    /// Kohavi, Tang & Xu, *Trustworthy Online Controlled Experiments* (2020), ch. 21: 821,588 vs 815,482 users
    /// in a designed 50/50 split, "p-value 1.8E-6", a sample ratio mismatch.
    @Test func sampleRatioMismatchFlagsThePublishedExample() throws {
        let check = try #require(
            SampleRatioMismatch(
                observed: ["control": 821_588, "treatment": 815_482], expectedPercent: ["control": 50, "treatment": 50]))
        #expect(abs(check.pValue - 1.8e-6) < 0.05e-6)
        #expect(check.mismatch)
        #expect(check.degreesOfFreedom == 1)
    }

    @Test func sampleRatioMismatchCountsInstallsOutsideEveryArmAsDefault() throws {
        // A 10 % arm: the other 90 % of installs get the feature's defaults and are the third group.
        let fine = try #require(SampleRatioMismatch(observed: ["b": 98, "default": 902], expectedPercent: ["b": 10]))
        #expect(!fine.mismatch)
        #expect(fine.groups.map(\.name) == ["b", "default"])
        #expect(abs(fine.groups[1].expected - 900) < 1e-9)
        let broken = try #require(SampleRatioMismatch(observed: ["b": 160, "default": 840], expectedPercent: ["b": 10]))
        #expect(broken.mismatch)
        let impossible = try #require(
            SampleRatioMismatch(observed: ["a": 500, "b": 500, "c": 1], expectedPercent: ["a": 50, "b": 50]))
        #expect(impossible.mismatch)
    }

    /// Johari et al. (2022) closed forms, evaluated by hand: θ̂ = 0.03, V = 0.0005, τ = 0.05 gives Λ < 1 (p = 1)
    /// and half-width 0.068337; θ̂ = 0.08 gives p = 0.011826.
    @Test func mixtureSPRTMatchesTheClosedForm() throws {
        let small = try #require(MixtureSPRT(difference: 0.03, variance: 0.0005, tau: 0.05))
        #expect(small.pValue == 1)
        #expect(abs((small.upper - small.lower) / 2 - 0.0683369183516613) < 1e-12)
        let large = try #require(MixtureSPRT(difference: 0.08, variance: 0.0005, tau: 0.05))
        #expect(abs(large.pValue - 0.011826013988560221) < 1e-12)
        #expect(large.lower > 0)
    }

    /// What "always valid" means: peeking after every 100 observations per arm up to 3,000 under no true
    /// difference, the share of simulated experiments ever rejected at α = 0.05 stays below α (a fixed-horizon
    /// z-test peeked at this often rejects far more often).
    @Test func mixtureSPRTKeepsItsErrorRateUnderContinuousPeeking() throws {
        var rng = SplitMix64(seed: 7)
        var everRejected = 0
        let experiments = 200
        for _ in 0..<experiments {
            var successes = (0, 0)
            var rejected = false
            for look in 1...30 {
                for _ in 0..<100 {
                    if rng.next() % 10 < 3 { successes.0 += 1 }
                    if rng.next() % 10 < 3 { successes.1 += 1 }
                }
                let n = look * 100
                if let test = MixtureSPRT.proportions(
                    successes1: successes.0, trials1: n, successes2: successes.1, trials2: n),
                    test.pValue < 0.05
                {
                    rejected = true
                }
            }
            if rejected { everRejected += 1 }
        }
        #expect(Double(everRejected) / Double(experiments) <= 0.05)
    }
}

/// The install-level quantile bootstrap walks sorted events weighted by draws per install instead of pooling and
/// sorting each resample; it must give exactly what pooling and sorting gives, resample by resample.
@Suite struct ClusterQuantileBootstrapTests {
    /// The definition: draw installs with replacement, pool their events, sort, take the type-7 quantile.
    private static func reference(_ a: [[Double]], _ b: [[Double]], q: Double, resamples: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        func draw(_ installs: [[Double]]) -> Double {
            var pooled: [Double] = []
            for _ in installs.indices { pooled += installs[rng.nextIndex(below: installs.count)] }
            return Percentiles.quantile(ofSorted: pooled.sorted(), q)
        }
        return (0..<resamples).map { _ in
            let x = draw(a)
            return x - draw(b)
        }.sorted()
    }

    @Test(arguments: [0.0, 0.5, 0.95, 1.0])
    func matchesPoolingAndSorting(q: Double) throws {
        var rng = SplitMix64(seed: 7)
        // Installs of 1–4 events with many ties (whole milliseconds), as field latencies are.
        func installs(_ count: Int, shift: Double) -> [[Double]] {
            (0..<count).map { _ in (0...rng.nextIndex(below: 4)).map { _ in Double(rng.nextIndex(below: 40)) + shift } }
        }
        let (a, b) = (installs(30, shift: 5), installs(25, shift: 0))
        let configuration = BootstrapConfiguration(resamples: 400, seed: 11)
        let bootstrap = try #require(ClusterQuantileBootstrap(a, b, quantile: q, configuration: configuration))
        let draws = Self.reference(a, b, q: q, resamples: 400, seed: 11)
        #expect(bootstrap.lower == Percentiles.quantile(ofSorted: draws, 0.025))
        #expect(bootstrap.upper == Percentiles.quantile(ofSorted: draws, 0.975))
        let below = draws.filter { $0 <= 0 }.count
        let above = draws.filter { $0 >= 0 }.count
        #expect(bootstrap.pValue == min(1, 2 * Double(min(below, above) + 1) / 401))
    }
}
