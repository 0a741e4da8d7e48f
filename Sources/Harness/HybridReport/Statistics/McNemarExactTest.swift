import Foundation

/// McNemar's exact test for paired pass/fail outcomes of two arms on the same cases.
///
/// Only discordant pairs carry information: `b` cases where the first arm passed and the second failed, `c` the
/// reverse. Under the null hypothesis of equal pass rates each discordant pair is a fair coin, so
/// p = min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c, ½). The tail is scaled by its largest term in log space
/// (via `lgamma`), so b + c in the millions stays finite and accurate to rounding, in at most O(min(b, c)) steps.
public struct McNemarExactTest: Sendable, Hashable {
    /// Pairs where the first arm passed and the second failed.
    public let b: Int
    /// Pairs where the first arm failed and the second passed.
    public let c: Int
    /// The exact two-sided p-value; 1 when there are no discordant pairs.
    public let pValue: Double

    /// Runs the test on discordant counts, or returns nil when either count is negative.
    public init?(b: Int, c: Int) {
        guard b >= 0, c >= 0 else { return nil }
        self.b = b
        self.c = c
        pValue = Self.exactTwoSidedPValue(b: b, c: c)
    }

    /// Runs the test on paired outcomes (index i of both arrays is the same case), or returns nil when the arrays
    /// differ in length.
    public init?(first: [Bool], second: [Bool]) {
        guard first.count == second.count else { return nil }
        var b = 0
        var c = 0
        for (x, y) in zip(first, second) where x != y {
            if x { b += 1 } else { c += 1 }
        }
        self.init(b: b, c: c)
    }

    /// b + c, the number of pairs on which the arms disagreed.
    public var discordantPairs: Int { b + c }

    private static func exactTwoSidedPValue(b: Int, c: Int) -> Double {
        let n = b + c
        guard n > 0 else { return 1 }
        let k = min(b, c)
        let nd = Double(n)
        // Start from the largest term, C(n, k) / 2ⁿ (terms grow with i up to n/2), and walk down with the exact
        // ratio C(n, i−1) / C(n, i) = i / (n − i + 1); every scaled term is ≤ 1, so nothing overflows, and the
        // walk stops once terms no longer change the sum (after O(√n) steps when k is near n/2).
        let logChoose: Double = lgamma(nd + 1) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
        let logLargest: Double = logChoose - nd * log(2.0)
        var term = 1.0
        var scaledSum = 1.0
        var i = k
        while i > 0 {
            term *= Double(i) / Double(n - i + 1)
            scaledSum += term
            if term < scaledSum * 1e-17 { break }
            i -= 1
        }
        return min(1, 2 * exp(logLargest + log(scaledSum)))
    }
}
