/// Holm's step-down adjustment of p-values for the family of comparisons in one report (Holm 1979).
///
/// Controls the family-wise error rate at α like Bonferroni but is uniformly more powerful. With the m p-values
/// sorted ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted value is p̃₍ᵢ₎ = min(1, maxⱼ≤ᵢ (m − j + 1)·p₍ⱼ₎); a comparison is
/// significant at α when its adjusted p < α. Same definition as R `p.adjust(method = "holm")`.
public enum HolmCorrection {
    /// The Holm-adjusted p-values, in the same order as `pValues`.
    ///
    /// Adjusted values are monotone in the original ones and capped at 1. A NaN input (a test that could not be
    /// run) still counts towards m and is treated as p = 1, which can only make the others more conservative.
    /// Inputs outside [0, 1] are clamped to it.
    public static func adjustedPValues(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let cleaned = pValues.map { $0.isNaN ? 1 : min(1, max(0, $0)) }
        // Stable order so ties keep their input order; the running max makes tied values equal anyway.
        let order = cleaned.indices.sorted { (cleaned[$0], $0) < (cleaned[$1], $1) }
        var adjusted = [Double](repeating: 1, count: m)
        var runningMax = 0.0
        for (rank, index) in order.enumerated() {
            let scaled = min(1, Double(m - rank) * cleaned[index])
            runningMax = max(runningMax, scaled)
            adjusted[index] = runningMax
        }
        return adjusted
    }
}
