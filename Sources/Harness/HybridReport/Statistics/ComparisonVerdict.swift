import Foundation

/// The sentence a report prints for one paired comparison, and the decision behind it.
///
/// A winner is named only when the confidence interval of the difference excludes zero AND, where a p-value is
/// given, the Holm-adjusted p is below α. Otherwise the sentence says "no detectable difference at n = …" with the
/// minimum detectable effect, so a null result is never read as "equal". Direction-aware: for latency and cost a
/// lower value wins.
public struct ComparisonVerdict: Sendable, Hashable {
    /// Whether a higher or a lower value of the metric is the better one.
    public enum Direction: Sendable, Hashable {
        /// Scores, pass rates, tokens per second.
        case higherIsBetter
        /// Latency, cost.
        case lowerIsBetter
    }

    /// The decision.
    public enum Outcome: Sendable, Hashable {
        /// The first arm is better, detectably.
        case firstBetter
        /// The second arm is better, detectably.
        case secondBetter
        /// The data do not show a difference at this n.
        case noDetectableDifference
    }

    /// The decision.
    public let outcome: Outcome
    /// The rendered sentence, e.g. "local better than cloud by 120 ms (95% CI [80, 160] ms, p_adj = 0.002)" or
    /// "local vs cloud: no detectable difference at n = 40 (MDE ≈ 0.21; local − cloud = 0.05, 95% CI [-0.05, 0.15],
    /// p_adj = 0.620)". When a winner is named, the amount and interval are of the improvement (always positive).
    public let sentence: String

    /// Judges a difference first − second.
    ///
    /// - Parameters:
    ///   - first: display name of the first arm; `difference` and the interval are first − second.
    ///   - interval: the confidence interval of the difference; nil (not computable) never yields a winner.
    ///   - adjustedPValue: the Holm-adjusted p-value where the comparison has one (McNemar, paired bootstrap).
    ///   - count: n, the number of paired cases.
    ///   - minimumDetectableEffect: from ``MinimumDetectableEffect``, in the same units as `difference`.
    ///   - confidenceLevel: the level of `interval`, only for the wording.
    ///   - unit: appended to amounts, e.g. "ms"; empty for none.
    ///   - format: renders amounts; the default keeps about three significant digits.
    ///   - minimumCount: below this many pairs no winner is named whatever the interval says: a percentile
    ///     bootstrap over 3 pairs has only 10 distinct resamples and yields a falsely narrow interval.
    public init(
        first: String,
        second: String,
        difference: Double,
        interval: ClosedRange<Double>?,
        adjustedPValue: Double?,
        count: Int,
        minimumDetectableEffect: Double?,
        direction: Direction,
        alpha: Double = 0.05,
        confidenceLevel: Double = 0.95,
        unit: String = "",
        format: (Double) -> String = ComparisonVerdict.defaultFormat,
        minimumCount: Int = ComparisonVerdict.minimumPairedCount
    ) {
        let suffix = unit.isEmpty ? "" : " " + unit
        let level = "\(Int((confidenceLevel * 100).rounded()))% CI"
        let pText = adjustedPValue.map { ", " + Self.formatAdjustedP($0) } ?? ""
        let pPasses = adjustedPValue.map { $0 < alpha } ?? true
        var firstIsHigher: Bool?
        let enoughPairs = count >= minimumCount
        if let interval, pPasses, enoughPairs, !difference.isNaN {
            if interval.lowerBound > 0 { firstIsHigher = true }
            if interval.upperBound < 0 { firstIsHigher = false }
        }
        guard let firstIsHigher, let interval else {
            outcome = .noDetectableDifference
            let mde = !enoughPairs
                ? "too few pairs for a reliable interval: at least \(minimumCount) are needed"
                : minimumDetectableEffect.map { "MDE ≈ \(format($0))\(suffix)" } ?? "MDE not estimable"
            let ci = interval.map { ", \(level) [\(format($0.lowerBound)), \(format($0.upperBound))]\(suffix)" } ?? ""
            sentence = "\(first) vs \(second): no detectable difference at n = \(count) "
                + "(\(mde); \(first) − \(second) = \(format(difference))\(suffix)\(ci)\(pText))"
            return
        }
        let firstWins = firstIsHigher == (direction == .higherIsBetter)
        outcome = firstWins ? .firstBetter : .secondBetter
        // Report the improvement of the winner over the loser, so amount and bounds are positive.
        // Higher-is-better: improvement = winner − loser; lower-is-better: loser − winner. Both equal
        // ±(first − second) with the sign of firstIsHigher.
        let improvesWithDifference = firstIsHigher
        let amount = improvesWithDifference ? difference : -difference
        let low = improvesWithDifference ? interval.lowerBound : -interval.upperBound
        let high = improvesWithDifference ? interval.upperBound : -interval.lowerBound
        let (winner, loser) = firstWins ? (first, second) : (second, first)
        sentence = "\(winner) better than \(loser) by \(format(abs(amount)))\(suffix) "
            + "(\(level) [\(format(low)), \(format(high))]\(suffix)\(pText))"
    }

    /// Judges a ``PairedBootstrap`` of first − second, with the MDE from its SD of differences.
    public init(
        first: String,
        second: String,
        comparison: PairedBootstrap,
        adjustedPValue: Double?,
        direction: Direction,
        alpha: Double = 0.05,
        unit: String = "",
        format: (Double) -> String = ComparisonVerdict.defaultFormat
    ) {
        self.init(
            first: first,
            second: second,
            difference: comparison.meanDifference,
            interval: comparison.lower...comparison.upper,
            adjustedPValue: adjustedPValue,
            count: comparison.count,
            minimumDetectableEffect: MinimumDetectableEffect.pairedMeans(
                standardDeviationOfDifferences: comparison.standardDeviationOfDifferences,
                count: comparison.count,
                alpha: alpha
            ),
            direction: direction,
            alpha: alpha,
            confidenceLevel: comparison.confidenceLevel,
            unit: unit,
            format: format
        )
    }

    /// Fewest paired cases for which a comparison may name a winner.
    public static let minimumPairedCount = 10

    /// About three significant digits without exponents for everyday magnitudes: 1234.5 → "1235", 80 → "80",
    /// 12.345 → "12.3", 0.01234 → "0.0123"; below 0.0001, scientific notation ("%.3g").
    public static func defaultFormat(_ value: Double) -> String {
        abs(value) >= 100 ? String(format: "%.0f", value) : String(format: "%.3g", value)
    }

    private static func formatAdjustedP(_ p: Double) -> String {
        p < 0.001 ? "p_adj < 0.001" : String(format: "p_adj = %.3f", p)
    }
}
