/// Order statistics of a sample (latency p50 / p95 / p99 and the like), from one sort.
///
/// Definition: linear interpolation between order statistics, Hyndman & Fan (1996) type 7, the default of numpy
/// `percentile`, R `quantile` and Excel `PERCENTILE.INC`: for sorted x₀ … xₙ₋₁ and q in [0, 1], h = (n − 1)·q,
/// Q(q) = x⌊h⌋ + (h − ⌊h⌋)(x⌊h⌋₊₁ − x⌊h⌋). Building costs one O(n log n) sort and one array; each query is O(1).
public struct Percentiles: Sendable, Equatable {
    /// The sample in ascending order, NaN removed.
    public let sorted: [Double]

    /// The order statistics of `values`, or nil when no value is left after dropping NaN (which cannot be ordered).
    public init?(_ values: [Double]) {
        var copy = values
        copy.removeAll(where: \.isNaN)
        guard !copy.isEmpty else { return nil }
        DoubleRadixSort.sort(&copy)
        sorted = copy
    }

    /// Wraps an already ascending, NaN-free array without sorting again, or returns nil when it is empty or not
    /// ascending (checked in O(n)).
    public init?(presorted: [Double]) {
        guard !presorted.isEmpty, !presorted.contains(where: \.isNaN) else { return nil }
        for i in presorted.indices.dropFirst() where presorted[i - 1] > presorted[i] {
            return nil
        }
        sorted = presorted
    }

    /// Number of values.
    public var count: Int { sorted.count }
    /// Smallest value.
    public var minimum: Double { sorted[0] }
    /// Largest value.
    public var maximum: Double { sorted[sorted.count - 1] }
    /// The median (type 7).
    public var p50: Double { quantile(0.50) }
    /// The 95th percentile (type 7).
    public var p95: Double { quantile(0.95) }
    /// The 99th percentile (type 7).
    public var p99: Double { quantile(0.99) }

    /// The type-7 quantile at `q` in [0, 1]; `q` outside is clamped to the range, NaN gives NaN.
    public func quantile(_ q: Double) -> Double {
        Self.quantile(ofSorted: sorted, q)
    }

    /// The type-7 quantile of an ascending, non-empty array; NaN for an empty array or NaN `q`.
    public static func quantile(ofSorted values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty, !q.isNaN else { return .nan }
        let h = Double(values.count - 1) * min(1, max(0, q))
        let lowIndex = Int(h.rounded(.down))
        let fraction = h - Double(lowIndex)
        guard fraction > 0, lowIndex + 1 < values.count else { return values[lowIndex] }
        let low = values[lowIndex]
        return low + fraction * (values[lowIndex + 1] - low)
    }
}
