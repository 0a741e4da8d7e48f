import Foundation
import HybridReport
import Testing

/// The graphical procedure that adjusts `recommend`'s family of claims (Bretz et al. 2009).
@Suite struct GraphicalProcedureTests {
    @Test("equal weights passing equally is Holm, on random families of 1 to 8")
    func equalWeightsAreHolm() throws {
        var rng = SplitMix64(seed: 7)
        for size in 1...8 {
            for _ in 0..<50 {
                let p = (0..<size).map { _ in pow(rng.nextUnit(), 3) }
                let graph = try #require(GraphicalProcedure.passingEqually(weights: Array(repeating: 1 / Double(size), count: size)))
                let adjusted = graph.adjustedPValues(p)
                let holm = HolmCorrection.adjustedPValues(p)
                for (a, b) in zip(adjusted, holm) { #expect(abs(a - b) < 1e-12, "\(p)") }
            }
        }
    }

    @Test("all weight on one claim tests it at the full α; the others follow once it is rejected")
    func aPrimaryHypothesisGetsTheWholeAlpha() throws {
        let graph = try #require(GraphicalProcedure.passingEqually(weights: [0, 1, 0, 0]))
        let adjusted = graph.adjustedPValues([0.001, 0.04, 0.3, 0.02])
        #expect(abs(adjusted[1] - 0.04) < 1e-12, "the primary at α: \(adjusted)")
        // After the primary, each of the three holds 1/3: 0.001 × 3, then 0.02 × 2, then 0.3.
        #expect(abs(adjusted[0] - 0.04) < 1e-12 && abs(adjusted[3] - 0.04) < 1e-12 && abs(adjusted[2] - 0.3) < 1e-12, "\(adjusted)")
        let failed = graph.adjustedPValues([0.001, 0.2, 0.01, 0.01])
        #expect(failed.allSatisfy { $0 >= 0.2 }, "nothing before the primary: \(failed)")
    }

    @Test("a fixed sequence: the second is tested only at the first's level, as Bretz et al. draw it")
    func aFixedSequence() throws {
        let graph = try #require(GraphicalProcedure(weights: [1, 0], transitions: [[0, 1], [1, 0]]))
        #expect(graph.adjustedPValues([0.01, 0.03]) == [0.01, 0.03])
        #expect(graph.adjustedPValues([0.06, 0.001]) == [0.06, 0.06])
    }

    @Test("weights over 1, rows over 1, self-edges and negative shares are refused")
    func badGraphsAreRefused() {
        #expect(GraphicalProcedure(weights: [0.6, 0.6], transitions: [[0, 1], [1, 0]]) == nil)
        #expect(GraphicalProcedure(weights: [0.5, 0.5], transitions: [[0, 1.2], [1, 0]]) == nil)
        #expect(GraphicalProcedure(weights: [0.5, 0.5], transitions: [[0.5, 0.5], [1, 0]]) == nil)
        #expect(GraphicalProcedure(weights: [-0.1, 0.5], transitions: [[0, 1], [1, 0]]) == nil)
    }

    @Test("family-wise error at or under α with all nulls true, for weights fixed in advance (20,000 families)")
    func theFamilyWiseErrorHolds() throws {
        var rng = SplitMix64(seed: 11)
        let graph = try #require(GraphicalProcedure.passingEqually(weights: [0.7, 0.1, 0.1, 0.1, 0]))
        var rejections = 0
        let families = 20_000
        for _ in 0..<families {
            let p = (0..<5).map { _ in rng.nextUnit() }
            if graph.adjustedPValues(p).contains(where: { $0 <= 0.05 }) { rejections += 1 }
        }
        // Independent uniform p's: the first step rejects with probability about Σ αwᵢ = 0.05.
        #expect(Double(rejections) / Double(families) <= 0.055, "\(rejections)")
        #expect(Double(rejections) / Double(families) >= 0.04, "\(rejections)")
    }
}
