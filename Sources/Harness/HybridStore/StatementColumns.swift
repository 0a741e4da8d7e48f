import GRDB
import GRDBSQLite

/// Typed reads of the current row of a raw SQLite statement, for the hot read paths that decode millions of rows:
/// GRDB's `Row` decoding checks and converts each value through several layers, which was most of a report's time.
/// The tables are STRICT, so a column holds the type its declaration says or NULL.
struct StatementColumns {
    let statement: SQLiteStatement

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func int(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(statement, column))
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func bool(_ column: Int32) -> Bool {
        sqlite3_column_int64(statement, column) != 0
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(statement, column)
    }

    func optionalInt(_ column: Int32) -> Int? {
        isNull(column) ? nil : int(column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        isNull(column) ? nil : double(column)
    }

    /// The bytes of a BLOB column, valid until the statement steps again (empty when NULL).
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, column), count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// A text built afresh (see ``TextInterner`` for columns whose values repeat); nil when NULL.
    func string(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }
}

/// `SQLITE_TRANSIENT` (the C macro does not import into Swift): SQLite copies bound bytes before the bind call
/// returns, so Swift may move or free the string afterwards. For the raw `sqlite3_bind_*` calls of the hot paths.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
