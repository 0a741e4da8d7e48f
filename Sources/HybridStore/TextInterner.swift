import Foundation
import GRDB
import GRDBSQLite

/// Hands out one `String` per distinct text value of a column read with the raw SQLite API, so a page of rows that
/// repeats a few arm ids, features or model ids (or one case id per arm in a row) builds each string once instead of
/// once per row.
///
/// A few recent values are kept and compared byte for byte; a new value replaces the oldest one. Texts that never
/// repeat (unique ids) cost one comparison per kept value more than building the string directly.
struct TextInterner {
    private struct Entry {
        var bytes: [UInt8]
        var value: String
    }

    private let capacity: Int
    private var entries: [Entry] = []
    private var nextVictim = 0

    /// An interner keeping at most `capacity` recent values (at least one).
    init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// The text at `column` of the statement's current row; nil when it is NULL.
    mutating func text(_ statement: SQLiteStatement, _ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        let bytes = UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column)))
        for entry in entries where entry.bytes.count == bytes.count {
            // memcmp: the generic `elementsEqual` was slower than building the string it spares.
            let equal = entry.bytes.withUnsafeBytes { kept in
                guard let base = kept.baseAddress else { return true }  // both empty
                return memcmp(base, pointer, bytes.count) == 0
            }
            if equal { return entry.value }
        }
        let entry = Entry(bytes: Array(bytes), value: String(decoding: bytes, as: UTF8.self))
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[nextVictim] = entry
            nextVictim = (nextVictim + 1) % capacity
        }
        return entry.value
    }
}
