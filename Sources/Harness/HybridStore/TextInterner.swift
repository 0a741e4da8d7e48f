import Foundation
import GRDB
import GRDBSQLite

/// Hands out one code per distinct text value of a column read with the raw SQLite API, so a page of rows that
/// repeats a few arm ids, features or model ids (or one case id per arm in a row) builds each string once, into the
/// page's text table (``MeasureColumns/texts``), instead of once per row.
///
/// A few recent values are kept and compared byte for byte; a new value replaces the oldest one (and is added to the
/// table again if it comes back later, which costs a string, not a wrong answer). Texts that never repeat (unique
/// ids) cost one comparison per kept value more than building the string directly.
struct TextInterner {
    private struct Entry {
        var bytes: [UInt8]
        var code: Int32
    }

    private let capacity: Int
    private var entries: [Entry] = []
    private var nextVictim = 0

    /// An interner keeping at most `capacity` recent values (at least one).
    init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// The code of the text at `column` of the statement's current row; `add` stores a new text and returns its
    /// code. nil when the column is NULL.
    mutating func code(_ statement: SQLiteStatement, _ column: Int32, add: (String) -> Int32) -> Int32? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return code(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column))), add: add)
    }

    /// The code of the text held in `bytes` (UTF-8); `add` stores a new text and returns its code.
    mutating func code(_ bytes: UnsafeBufferPointer<UInt8>, add: (String) -> Int32) -> Int32 {
        for entry in entries where Self.equal(entry.bytes, bytes.baseAddress, count: bytes.count) {
            return entry.code
        }
        let entry = Entry(bytes: Array(bytes), code: add(String(decoding: bytes, as: UTF8.self)))
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[nextVictim] = entry
            nextVictim = (nextVictim + 1) % capacity
        }
        return entry.code
    }

    /// True when `kept` holds the `count` bytes at `pointer`.
    private static func equal(_ kept: [UInt8], _ pointer: UnsafePointer<UInt8>?, count: Int) -> Bool {
        guard kept.count == count else { return false }
        // memcmp: the generic `elementsEqual` was slower than building the string it spares.
        return kept.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, let pointer else { return true }  // both empty
            return memcmp(base, pointer, count) == 0
        }
    }
}
