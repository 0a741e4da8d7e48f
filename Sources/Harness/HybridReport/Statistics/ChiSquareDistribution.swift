import Foundation

/// The chi-square distribution's upper tail, for goodness-of-fit tests such as the sample-ratio-mismatch check.
public enum ChiSquareDistribution {
    /// P(X ≥ x) for X ~ χ²(degreesOfFreedom): the regularized upper incomplete gamma Q(k/2, x/2).
    ///
    /// Series for x < a + 1, Lentz's continued fraction otherwise (Press et al., *Numerical Recipes*, 3rd ed.,
    /// §6.2, `gammq`), both to about 1e-15 relative. NaN for a non-positive degree of freedom or a NaN statistic.
    public static func survival(_ x: Double, degreesOfFreedom: Int) -> Double {
        guard degreesOfFreedom > 0, !x.isNaN else { return .nan }
        guard x > 0 else { return 1 }
        let a = Double(degreesOfFreedom) / 2
        let half = x / 2
        if half < a + 1 {
            return max(0, 1 - lowerSeries(a: a, x: half))
        }
        return upperContinuedFraction(a: a, x: half)
    }

    private static func lowerSeries(a: Double, x: Double) -> Double {
        var term = 1 / a
        var sum = term
        var denominator = a
        for _ in 0..<10_000 {
            denominator += 1
            term *= x / denominator
            sum += term
            if abs(term) < abs(sum) * 1e-16 { break }
        }
        return sum * exp(-x + a * log(x) - lgamma(a))
    }

    private static func upperContinuedFraction(a: Double, x: Double) -> Double {
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        for i in 1..<10_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return exp(-x + a * log(x) - lgamma(a)) * h
    }
}
