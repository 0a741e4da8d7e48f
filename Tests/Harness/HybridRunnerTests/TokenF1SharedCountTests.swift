@testable import HybridRunner
import Testing

/// `TokenF1Scorer.sharedCount` matches short token lists pair by pair and long ones through a dictionary; both
/// must give the multiset intersection, repeated tokens counted as often as both sides hold them.
@Suite struct TokenF1SharedCountTests {
    /// The intersection counted the plain way, as the reference.
    private func multisetIntersection(_ a: [String], _ b: [String]) -> Int {
        var counts: [String: Int] = [:]
        for token in b { counts[token, default: 0] += 1 }
        return a.reduce(0) { total, token in
            guard let left = counts[token], left > 0 else { return total }
            counts[token] = left - 1
            return total + 1
        }
    }

    @Test func bothPathsCountTheMultisetIntersection() {
        var generator = SystemRandomNumberGenerator()
        let vocabulary = ["cat", "sat", "on", "mat", "dog", "ran", "x", "the council closed"]
        for size in [1, 3, 8, 31, 33, 40, 120] {
            for _ in 0..<20 {
                let a = (0..<size).map { _ in vocabulary.randomElement(using: &generator)! }
                let b = (0..<Int.random(in: 1...size, using: &generator)).map { _ in vocabulary.randomElement(using: &generator)! }
                #expect(TokenF1Scorer.sharedCount(a, b) == multisetIntersection(a, b), "\(a) vs \(b)")
            }
        }
        #expect(TokenF1Scorer.sharedCount(["a", "a", "b"], ["a", "b", "b"]) == 2)
    }
}
