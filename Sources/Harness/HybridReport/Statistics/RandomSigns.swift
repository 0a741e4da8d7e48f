/// Random signs for sign-flip tests, one bit of a seeded ``SplitMix64`` each (64 per draw, lowest bit first), so
/// every sign-flip test draws the same pattern sequence from the same seed.
struct RandomSigns {
    private var generator: SplitMix64
    private var bits: UInt64 = 0
    private var available = 0

    /// Signs determined by `seed`.
    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// The next sign: +1 for a 0 bit, −1 for a 1 bit.
    mutating func next() -> Double {
        if available == 0 {
            bits = generator.next()
            available = 64
        }
        let sign: Double = bits & 1 == 0 ? 1 : -1
        bits >>= 1
        available -= 1
        return sign
    }
}
