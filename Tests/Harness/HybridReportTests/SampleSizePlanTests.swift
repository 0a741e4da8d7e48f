import HybridReport
import Testing

/// `hybrid plan`'s calculation: the textbook fixed-horizon size, the always-valid test's price, planned looks in
/// between, and the refusals.
@Suite struct SampleSizePlanTests {
    @Test("70 % → 75 %: 1,248 installs a group at a fixed horizon (two-sided z), more for 7 planned looks, most always-valid")
    func fieldDesigns() throws {
        let plan = try #require(SampleSizePlan(baseline: 0.7, effect: 0.05))
        let fixed = try #require(plan.fixedHorizon().units)
        #expect(fixed == 1_248, "(1.960 + 0.842)² × (0.21 + 0.1875) / 0.05²")
        let sevenLooks = try #require(plan.planned(looks: 7).units)
        // One planned look with the whole α is the fixed horizon, up to the integration's rounding.
        let one = try #require(plan.planned(looks: 1, share: 1).units)
        #expect(abs(one - fixed) <= 2, "\(one) against \(fixed)")
        let alwaysValid = try #require(plan.alwaysValid().units)
        #expect(fixed < sevenLooks && sevenLooks < alwaysValid, "\(fixed) < \(sevenLooks) < \(alwaysValid)")
        // The always-valid size is the smallest whose MDE reaches the effect.
        let variance = 0.21 + 0.1875
        let mde = { (n: Int) in MixtureSPRT.minimumDetectableEffect(variance: variance / Double(n), tau: 0.05, alpha: 0.05) ?? 1 }
        #expect(mde(alwaysValid) <= 0.05 && mde(alwaysValid - 1) > 0.05)
    }

    @Test("offline: the paired one-sided size recommend quotes; a worse arm plans like a better one")
    func offline() throws {
        let plan = try #require(SampleSizePlan(baseline: 0.7, effect: 0.1))
        let expected = SampleSizePlan.pairedCases(mean: 0.1, standardDeviation: (0.21 + 0.16).squareRoot(), alpha: 0.05)
        #expect(plan.offline.units == expected)
        #expect(SampleSizePlan(baseline: 0.8, effect: -0.1)?.offline.units == expected)
    }

    @Test("an effect of 0, a baseline outside [0, 1] or an arm pushed past it is refused")
    func refusals() {
        #expect(SampleSizePlan(baseline: 0.7, effect: 0) == nil)
        #expect(SampleSizePlan(baseline: 1.2, effect: 0.1) == nil)
        #expect(SampleSizePlan(baseline: 0.95, effect: 0.1) == nil)
    }
}

/// The planned design's power, which `hybrid plan` solves for, against simulated Brownian paths.
@Suite struct GroupSequentialPowerTests {
    @Test("O'Brien–Fleming, 7 equal looks, α 0.036, drift 2.8: the integration's power within 1 point of 40,000 simulated paths")
    func powerMatchesSimulation() throws {
        let fractions = (1...7).map { Double($0) / 7 }
        let design = try #require(GroupSequentialDesign(spending: .obrienFleming, alpha: 0.036, fractions: fractions))
        let bounds = design.boundaries()
        let computed = design.power(drift: 2.8, boundaries: bounds)
        let simulated = GroupSequentialDesignTests.simulatedCrossing(
            fractions: fractions, boundaries: bounds, drift: 2.8, paths: 40_000, seed: 3)
        #expect(abs(computed - simulated) < 0.01, "integration \(computed), simulation \(simulated)")
        #expect(abs(design.power(drift: 0, boundaries: bounds) - 0.036) < 0.001, "no drift: the design's α")
    }
}
