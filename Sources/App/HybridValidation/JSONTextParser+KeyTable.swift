extension JSONTextParser {
    /// The short ASCII object keys of one parse, each decoded into a `String` once and numbered: objects of the
    /// same shape repeated a thousand times (a config's features) then cost neither a `String` per key nor string
    /// comparisons in the duplicate check. It lives for one parse only: nothing carries from one document to the
    /// next.
    ///
    /// Open addressing over a fixed number of slots, each key packed into two words kept apart from its `String`
    /// (a probe reads words only); before the table is in use (``admit()``), when it is full or a key is too long,
    /// the parser decodes the key the ordinary way.
    struct KeyTable {
        /// Longest key kept (bytes): it and its length fit in two 64-bit words, and it is a small `String`.
        static let longestKey = 15
        private static let slotBits = 9
        private static let slotCount = 1 << slotBits
        /// Past this many keys, new ones are not entered (probing stays short; a document with more distinct
        /// names is not the shape this serves).
        private static let capacity = slotCount * 3 / 4
        /// Set in every packed `high` word, so an empty slot (0) never equals a key, the empty key included.
        private static let occupied: UInt64 = 1 << 63

        /// Two words per slot: the key's first eight bytes, then the rest with its length and ``occupied``.
        private var words: [UInt64] = []
        private var keys: [String] = []
        private var count = 0
        /// Keys met before the table is allocated: small documents (the store parses a million tiny JSON columns
        /// per report) never pay for it.
        private var keysBeforeTable = 48

        /// An entry: the key, its id (equal ids, equal bytes) and whether this parse met it for the first time.
        struct Entry {
            var key: String
            var id: Int
            var isNew: Bool
        }

        /// Counts one more key of the parse and says whether the table is in use for it (allocating it when the
        /// document turns out large); when false the parser reads the key the ordinary way, with no look-ahead.
        mutating func admit() -> Bool {
            guard words.isEmpty else { return true }
            guard keysBeforeTable == 0 else {
                keysBeforeTable -= 1
                return false
            }
            words = Array(repeating: 0, count: 2 * Self.slotCount)
            keys = Array(repeating: "", count: Self.slotCount)
            return true
        }

        /// The entry for `bytes` (ASCII, at most ``longestKey``, no escapes), entering it when new; nil when the
        /// table is full. Only after ``admit()`` said true.
        mutating func entry(for bytes: UnsafeBufferPointer<UInt8>) -> Entry? {
            guard bytes.count <= Self.longestKey else { return nil }
            let (low, high) = Self.pack(bytes)
            var index = Self.slot(low, high)
            while true {
                let stored = words[2 * index + 1]
                if stored == 0 { break }
                if stored == high && words[2 * index] == low { return Entry(key: keys[index], id: index, isNew: false) }
                index = (index + 1) & (Self.slotCount - 1)
            }
            guard count < Self.capacity else { return nil }
            let key = String(decoding: bytes, as: UTF8.self)
            words[2 * index] = low
            words[2 * index + 1] = high
            keys[index] = key
            count += 1
            return Entry(key: key, id: index, isNew: true)
        }

        /// The bytes in order over both words (one copy, no loop; little-endian, as every platform this builds
        /// for), the length in bits 56–59 of `high`, which no key byte reaches: distinct keys pack differently.
        private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return (words.0, words.1 | UInt64(bytes.count) << 56 | occupied)
        }

        private static func slot(_ low: UInt64, _ high: UInt64) -> Int {
            let mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xFF51_AFD7_ED55_8CCD
            // The top bits of a multiplicative hash are its best mixed.
            return Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
        }
    }
}
