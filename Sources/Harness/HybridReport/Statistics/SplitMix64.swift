/// A small, fast, seeded pseudo-random generator (SplitMix64, Steele, Lea & Flood 2014, as used to seed xoshiro).
///
/// Reports must be reproducible: the same seed always yields the same stream on every platform and Swift version,
/// which the system generator does not promise. Not cryptographically secure; use it only for resampling.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator whose whole output is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1): the top 53 bits, every value a multiple of 2⁻⁵³.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// A uniformly distributed index in `0..<bound`, or 0 when `bound <= 1`.
    ///
    /// Lemire's multiply-shift with rejection (2019), implemented here rather than through `Int.random(in:using:)`
    /// so the mapping from bits to indices, and therefore every bootstrap result, cannot change with the stdlib.
    public mutating func nextIndex(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }
}
