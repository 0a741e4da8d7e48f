import Foundation
import HybridReport

/// A one-sided 95 % bound on the mean of per-case values (Student's t): the paired tests of `--by-input` (as good
/// as the current route within the margin, cheaper than it) are one-sided, with the case as the unit.
struct OneSidedBound: Sendable {
    var count: Int
    var mean: Double
    /// mean − t·se: the test "mean > x" holds at α = 0.05 when this is above x.
    var lower: Double
    /// mean + t·se: the test "mean < x" holds at α = 0.05 when this is below x.
    var upper: Double

    init(_ values: [Double]) {
        count = values.count
        guard count > 1 else {
            mean = values.first ?? .nan
            lower = -.infinity
            upper = .infinity
            return
        }
        let n = Double(count)
        let m = values.reduce(0, +) / n
        mean = m
        let variance = values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / (n - 1)
        let margin = Self.t95(degrees: count - 1) * (variance / n).squareRoot()
        lower = mean - margin
        upper = mean + margin
    }

    /// Differences `a[i] − b[i]`.
    init(_ a: [Double], minus b: [Double]) {
        self.init(zip(a, b).map { $0 - $1 })
    }

    /// The one-sided 95 % quantile of Student's t (Cornish–Fisher expansion around the normal's; within 0.01 from
    /// 5 degrees of freedom).
    static func t95(degrees df: Int) -> Double {
        let z = NormalDistribution.quantile(0.95)
        let d = Double(max(1, df))
        let z3 = z * z * z
        return z + (z3 + z) / (4 * d) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96 * d * d)
    }
}
