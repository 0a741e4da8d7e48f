/// Dense indices for the (case id, repeat) pairs of one feature, in first-seen order: the positions every arm's
/// per-case arrays share while streaming.
///
/// An open-addressing table of `Int32` positions hashed with FNV-1a over the case id's bytes, instead of a
/// `[CaseSlot: Int]` dictionary: at 200,000 cases the dictionary's buckets held the key's `String` and an `Int`
/// besides the value (16.8 MB, and both bucket arrays at once while it grew, near the report's peak), and each lookup
/// paid a seeded `Hasher`. Here a bucket is 4 bytes and the ids are kept once, in ``caseIDs``.
struct CaseTable {
    /// Each position's case id.
    private(set) var caseIDs: [String] = []
    /// Each position's repeat index.
    private(set) var repeats: [Int32] = []
    /// Positions, -1 for empty; at most half full.
    private var buckets = [Int32](repeating: -1, count: 1024)

    /// How many pairs the table holds.
    var count: Int { caseIDs.count }

    /// The position of (`caseID`, `repeatIndex`), appended when new.
    mutating func index(caseID: String, repeatIndex: Int) -> Int {
        let repeatCode = Int32(truncatingIfNeeded: repeatIndex)
        var bucket = Self.hash(caseID, repeatCode) & (buckets.count - 1)
        while true {
            let position = Int(buckets[bucket])
            if position < 0 { break }
            if repeats[position] == repeatCode, Self.sameBytes(caseIDs[position], caseID) { return position }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        let position = caseIDs.count
        caseIDs.append(caseID)
        repeats.append(repeatCode)
        buckets[bucket] = Int32(position)
        if caseIDs.count * 2 > buckets.count { grow() }
        return position
    }

    /// The pairs as "caseID#repeat" keys, in position order.
    func keys() -> [String] {
        zip(caseIDs, repeats).map { FeatureAccumulator.caseKey(caseID: $0, repeatIndex: Int($1)) }
    }

    private mutating func grow() {
        buckets = [Int32](repeating: -1, count: buckets.count * 2)
        let mask = buckets.count - 1
        for position in caseIDs.indices {
            var bucket = Self.hash(caseIDs[position], repeats[position]) & mask
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(position)
        }
    }

    /// Byte equality, as the hash and the store's unique key see ids: `String.==` would also merge canonically
    /// equivalent spellings whose probes happen to meet.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        // Over contiguous UTF-8 (native strings already are): iterating the `utf8` views was most of a lookup.
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    /// FNV-1a over the id's UTF-8 bytes and the repeat index: not randomly seeded, which is fine for ids a run's own
    /// dataset chose (a collision costs a longer probe, never a wrong answer). Ids are told apart by their bytes, as
    /// the store's unique key does (the dictionary merged canonically equivalent spellings).
    private static func hash(_ caseID: String, _ repeatIndex: Int32) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var caseID = caseID
        caseID.withUTF8 { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        hash = (hash ^ UInt64(UInt32(bitPattern: repeatIndex))) &* 0x100_0000_01b3
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
