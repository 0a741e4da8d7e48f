/// The single-step max-T sign-flip test of a family of one-sided paired comparisons measured on the same cases
/// (Westfall & Young, *Resampling-Based Multiple Testing*, 1993, §2.6; Romano & Wolf 2005): for member k the
/// standardized sign-flip statistic Tₖ = Σᵢ Dᵢₖ / √(Σᵢ Dᵢₖ²), and its adjusted one-sided p is the share of sign
/// patterns whose largest member, maxⱼ Σᵢ sᵢ·Dᵢⱼ / √(Σᵢ Dᵢⱼ²), reaches Tₖ.
///
/// Why not Bonferroni: the members share their cases (a hedge raced after 300 ms and after 330 ms saves time on the
/// same slow cases), so their statistics move together and multiplying by the family's size pays for independent
/// chances the family does not have. Each random pattern flips case i in every member at once, which keeps that
/// correlation; under "no member differs" a case's differences are exchangeable with their negatives, so the
/// observed maximum is one draw of the flipped maxima and p = (1 + hits)/(1 + B) is valid (Phipson & Smyth 2010) for
/// whichever member a later rule picks: its Tₖ is at most the observed maximum. Standardizing puts members with
/// larger differences on the scale of the others, so none dominates the maximum by its units alone.
public struct PairedSignFlipMaxT: Sendable, Hashable {
    /// Per member, Tₖ (0 for a member whose differences are all 0).
    public let statistics: [Double]
    /// Per member, the one-sided p adjusted for the family; never below 1/(1 + B).
    public let adjustedPValues: [Double]
    /// Cases with a non-zero difference in at least one member (the others carry no sign anywhere).
    public let informativeCases: Int

    /// The test of `differences` (per member, its per-case differences, every member over the same cases in the same
    /// order) with `configuration`'s resample count and seed; nil when the family is empty, its members differ in
    /// length or a difference is not finite.
    public init?(differences: [[Double]], configuration: BootstrapConfiguration = .standard) {
        guard let count = differences.first?.count, differences.allSatisfy({ $0.count == count }),
            differences.allSatisfy({ $0.allSatisfy(\.isFinite) })
        else { return nil }
        let cases = (0..<count).filter { i in differences.contains { $0[i] != 0 } }
        let scaled = differences.map { member in Self.standardized(cases.map { member[$0] }) }
        informativeCases = cases.count
        statistics = scaled.map { $0.reduce(0, +) }
        guard !cases.isEmpty else {
            adjustedPValues = differences.map { _ in 1 }
            return
        }
        let maxima = Self.flippedMaxima(scaled, resamples: configuration.effectiveResamples, seed: configuration.seed)
        adjustedPValues = statistics.map { observed in
            // Maxima equal to the observed statistic up to rounding must count as reaching it.
            let hits = maxima.filter { $0 >= observed - 1e-9 * max(1, abs(observed)) }.count
            return Double(1 + hits) / Double(1 + maxima.count)
        }
    }

    /// `values` divided by their root sum of squares, so that their sum is Tₖ and a flipped sum is Tₖ*; all zeros when
    /// they are all 0.
    static func standardized(_ values: [Double]) -> [Double] {
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? values.map { $0 / norm } : values.map { _ in 0 }
    }

    /// The family's largest flipped statistic under each of `resamples` seeded sign patterns, one pattern shared by
    /// every member (``RandomSigns``, as `PairedSignFlipTest` draws them).
    static func flippedMaxima(_ members: [[Double]], resamples: Int, seed: UInt64) -> [Double] {
        var random = RandomSigns(seed: seed)
        var signs = [Double](repeating: 1, count: members.first?.count ?? 0)
        var maxima: [Double] = []
        maxima.reserveCapacity(resamples)
        for _ in 0..<resamples {
            for i in signs.indices { signs[i] = random.next() }
            var largest = -Double.infinity
            for member in members {
                var sum = 0.0
                for (value, sign) in zip(member, signs) { sum += sign * value }
                largest = max(largest, sum)
            }
            maxima.append(largest)
        }
        return maxima
    }
}
