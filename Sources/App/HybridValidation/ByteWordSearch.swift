/// Finds the first byte of interest in UTF-8 text eight bytes at a time: the JSON parser's string contents and
/// the config's prompt templates are most of the bytes a config load reads, and nearly all of them are plain text.
///
/// Each word is tested with the classic "has a zero byte" and "has a byte below n" tricks; a borrow can only flag
/// bytes above a true hit, so the lowest flagged byte (the first in memory, little-endian) is exact.
package enum ByteWordSearch {
    /// The offset of the first byte at or after `start` that equals `first` or `second` or is below `limit` (at
    /// most 0x80; 0 matches nothing), or `raw.count` when there is none.
    package static func firstIndex(
        in raw: UnsafeRawBufferPointer, from start: Int, equalTo first: UInt8, or second: UInt8, below limit: UInt8
    ) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        let firstWord = ones &* UInt64(first)
        let secondWord = ones &* UInt64(second)
        let limitWord = ones &* UInt64(limit)
        var index = start
        while index + 8 <= raw.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let hits = zeroBytes(word ^ firstWord) | zeroBytes(word ^ secondWord) | ((word &- limitWord) & ~word & highs)
            if hits != 0 { return index + hits.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < raw.count {
            let byte = raw[index]
            if byte == first || byte == second || byte < limit { return index }
            index += 1
        }
        return raw.count
    }
}
