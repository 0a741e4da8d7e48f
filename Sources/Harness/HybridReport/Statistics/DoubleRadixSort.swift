/// Sorts NaN-free `Double`s ascending with a stable LSD radix sort over their bit patterns: O(n) instead of the
/// standard library's O(n log n) comparison sort, which was most of the time a million-result report spent on
/// percentiles (several 200,000-value samples per arm).
///
/// The result is exactly what the standard library's `sort()` gives: the keys order like the values and distinct
/// keys are distinct values. The one pair of distinct bit patterns that compare equal, -0.0 and +0.0, would be
/// ordered by sign here and by input position there, so an array holding -0.0 takes the comparison sort.
enum DoubleRadixSort {
    /// Below this many values the comparison sort is faster than eight counting passes.
    static let threshold = 1_024

    /// Sorts `values` (which must not contain NaN) in place.
    static func sort(_ values: inout [Double]) {
        guard values.count >= threshold, !values.contains(where: { $0 == 0 && $0.sign == .minus }) else {
            values.sort()
            return
        }
        var keys = values.map(key)
        var scratch = [UInt64](repeating: 0, count: keys.count)
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            if pass(&keys, into: &scratch, shift: shift) { swap(&keys, &scratch) }
        }
        for index in keys.indices { values[index] = value(keys[index]) }
    }

    /// One stable counting pass on the byte at `shift`, into `scratch`; false (nothing moved) when every key has
    /// the same byte there.
    private static func pass(_ keys: inout [UInt64], into scratch: inout [UInt64], shift: UInt64) -> Bool {
        var counts = [Int](repeating: 0, count: 256)
        for key in keys { counts[Int((key >> shift) & 0xFF)] += 1 }
        if counts.contains(keys.count) { return false }
        var offset = 0
        for digit in 0..<256 {
            let count = counts[digit]
            counts[digit] = offset
            offset += count
        }
        keys.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { target in
                for key in source {
                    let digit = Int((key >> shift) & 0xFF)
                    target[counts[digit]] = key
                    counts[digit] += 1
                }
            }
        }
        return true
    }

    /// Unsigned keys that order like the values: negative values have every bit flipped, others the sign bit set.
    private static func key(_ value: Double) -> UInt64 {
        let bits = value.bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    private static func value(_ key: UInt64) -> Double {
        Double(bitPattern: key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key)
    }
}
