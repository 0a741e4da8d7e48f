/// Finds a table's member by the bytes of its name in the input, with no `String` and at most one comparison
/// for a name the table holds: built once from the table's names, a hash of the name's length and its first and
/// last eight bytes picks the one candidate (a seed is searched at build time so the table's names do not
/// collide), then the name is compared as two words (and, past 16 bytes, the bytes between).
struct JSONMemberNames: Sendable {
    /// One name as the words the lookup compares.
    private struct Name: Sendable {
        var length: Int
        var head: UInt64
        var tail: UInt64
        /// The whole name, whose bytes between the words are compared only for names past 16 bytes.
        var text: StaticString
        /// The next member in the same bucket (-1: none); used only when no seed separates every name.
        var next: Int
    }

    private let names: [Name]
    /// Bucket to the first member index in it, -1 for none; `1 << bits` buckets.
    private let buckets: [Int8]
    private let seed: UInt64
    private let shift: UInt64

    /// The lookup for `names` (the table's, in table order; at most 64 of them, as in `JSONMembers`).
    init(_ names: [StaticString]) {
        var entries = names.map { name in
            let bytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            return Name(length: bytes.count, head: Self.head(bytes, bytes.indices), tail: Self.tail(bytes, bytes.indices), text: name, next: -1)
        }
        let (seed, bits) = Self.separatingSeed(entries)
        var buckets = [Int8](repeating: -1, count: 1 << bits)
        let shift = UInt64(64 - bits)
        for index in entries.indices.reversed() {
            let bucket = Self.bucket(entries[index].length, entries[index].head, entries[index].tail, seed, shift)
            entries[index].next = Int(buckets[bucket])
            buckets[bucket] = Int8(index)
        }
        self.names = entries
        self.buckets = buckets
        self.seed = seed
        self.shift = shift
    }

    /// The index of the member named by `bytes[key]` (a name without escapes), nil for a name not in the table.
    @inline(__always)
    func index(of key: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = key.count
        let head = Self.head(bytes, key)
        let tail = Self.tail(bytes, key)
        var candidate = Int(buckets[Self.bucket(length, head, tail, seed, shift)])
        while candidate >= 0 {
            let name = names[candidate]
            if name.length == length, name.head == head, name.tail == tail,
                length <= 16 || Self.middlesMatch(name.text, bytes, key)
            {
                return candidate
            }
            candidate = name.next
        }
        return nil
    }

    /// Whether the bytes between the first and last eight of a long name match.
    private static func middlesMatch(_ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) -> Bool {
        (8..<(key.count - 8)).allSatisfy { name.utf8Start[$0] == bytes[key.lowerBound + $0] }
    }

    @inline(__always)
    private static func bucket(_ length: Int, _ head: UInt64, _ tail: UInt64, _ seed: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: ((head &+ tail &* 31 &+ UInt64(truncatingIfNeeded: length)) &* seed) >> shift)
    }

    /// The first (up to) eight bytes of `bytes[range]` as a little-endian word, the rest zero.
    @inline(__always)
    private static func head(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        let count = min(range.count, 8)
        if range.lowerBound + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
            return count == 8 ? word : word & ((1 << UInt64(count * 8)) - 1)
        }
        var word: UInt64 = 0
        for offset in 0..<count { word |= UInt64(bytes[range.lowerBound + offset]) << UInt64(offset * 8) }
        return word
    }

    /// The last eight bytes of `bytes[range]` as a little-endian word; zero when the range is shorter than 8
    /// bytes (the head holds it all).
    @inline(__always)
    private static func tail(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
        guard range.count > 8 else { return 0 }
        return UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: range.upperBound - 8, as: UInt64.self))
    }

    /// A multiplier under which no two names share a bucket, and the buckets' bit count; when none is found (two
    /// names alike in length, head and tail), the last seed tried, whose shared buckets chain.
    private static func separatingSeed(_ names: [Name]) -> (seed: UInt64, bits: Int) {
        let minimumBits = max(3, (Int.bitWidth - max(names.count, 1).leadingZeroBitCount) + 1)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for bits in minimumBits...10 {
            for _ in 0..<2_000 {
                var used = Set<Int>()
                let shift = UInt64(64 - bits)
                if names.allSatisfy({ used.insert(bucket($0.length, $0.head, $0.tail, seed, shift)).inserted }) {
                    return (seed, bits)
                }
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 | 1
            }
        }
        return (seed, 10)
    }
}
