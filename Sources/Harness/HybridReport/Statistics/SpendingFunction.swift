import Foundation

/// A Lan–DeMets alpha-spending function: how much of a two-sided α a group-sequential design may have spent by
/// information fraction t ∈ [0, 1] (Lan & DeMets, Biometrika 70(3), 1983). α(0) = 0 and α(1) = α; the boundary at
/// each look spends the increase since the look before, so the looks need not be equally spaced nor fixed in
/// advance in number, only stated before the data decide them.
///
/// Two-sided designs are symmetric: each side spends the function at α/2 (as gsDesign's `sfLDOF`/`sfLDPocock` and
/// ldbounds do), so the boundaries are the published ones (O'Brien–Fleming-like, five equal looks, α 0.05:
/// 4.877, 3.357, 2.680, 2.290, 2.031). For Pocock's function, linear in α, it is the same as spending α; for
/// O'Brien–Fleming's it spends slightly less early than 2 − 2Φ(z₁₋α/₂/√t) on the total α would.
public enum SpendingFunction: String, Sendable, Hashable, Codable, CaseIterable {
    /// O'Brien–Fleming-like: each side 2 − 2Φ(z₁₋α/₄ / √t), both together α(t) = 4 − 4Φ(z₁₋α/₄ / √t). Spends almost nothing early, nearly all of α at t = 1, so
    /// the final look's boundary is close to the fixed-horizon test's (the design Spotify's platform uses).
    case obrienFleming
    /// Pocock-like: α(t) = α · ln(1 + (e − 1)t). Spends evenly: early looks decide more easily, the last less.
    case pocock

    /// α(t), the share of the two-sided `alpha` spent by information fraction `t` (clamped to [0, 1]), both sides.
    public func spent(alpha: Double, at t: Double) -> Double {
        let t = min(1, max(0, t))
        guard t > 0 else { return 0 }
        switch self {
        case .obrienFleming:
            let z = NormalDistribution.quantile(1 - alpha / 4)
            return min(alpha, 2 * (2 - 2 * NormalDistribution.cdf(z / t.squareRoot())))
        case .pocock:
            return alpha * log(1 + (M_E - 1) * t)
        }
    }

    /// The function named `name` as the config and the command line spell it, or nil.
    public init?(named name: String) {
        self.init(rawValue: name)
    }
}
