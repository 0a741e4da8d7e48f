import GRDB
import GRDBSQLite

/// A cached GRDB statement bound and stepped through SQLite's C API, for the inserts that run for every row of a
/// run (results, their side rows, the response cache, field events): building `StatementArguments` (a boxed
/// value per column) and GRDB's per-execution bookkeeping cost more than SQLite's own work on those rows. Used
/// only inside the store's write transaction, on the connection that prepared the statement.
struct RawStatement {
    let statement: SQLiteStatement
    private let connection: SQLiteConnection

    /// The statement for `sql` from `db`'s statement cache.
    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql).sqliteStatement
        connection = db.sqliteConnection!
    }

    func bind(_ text: String?, at index: Int32) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { utf8 in
            // An empty buffer may have no address, which SQLite would store as NULL instead of ''.
            guard let start = utf8.baseAddress else {
                _ = sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
                return
            }
            _ = sqlite3_bind_text(statement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(utf8.count), sqliteTransient)
        }
    }

    func bind(_ number: Int?, at index: Int32) {
        guard let number else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_int64(statement, index, Int64(number))
    }

    func bind(_ number: Int64, at index: Int32) {
        sqlite3_bind_int64(statement, index, number)
    }

    /// Stored as 0 or 1, as GRDB stores a `Bool`.
    func bind(_ flag: Bool?, at index: Int32) {
        bind(flag.map { $0 ? 1 : 0 }, at: index)
    }

    func bind(_ number: Double?, at index: Int32) {
        guard let number else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_double(statement, index, number)
    }

    /// Runs the bound statement once and resets it; a failure throws the `DatabaseError` GRDB would (with the
    /// extended result code, so callers can tell a unique-key conflict from other constraint failures).
    func run() throws {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)), sql: sqlite3_sql(statement).map { String(cString: $0) })
        }
    }

    /// Rows the last `run()` inserted or changed.
    var changes: Int32 { sqlite3_changes(connection) }
}

/// Where a record's column values go, in column order: one listing of a row's values serves both the GRDB record
/// path (``ValueListSink``) and the raw bind of the hot inserts (``RawStatementSink``).
protocol ColumnSink {
    mutating func add(_ text: String?)
    mutating func add(_ number: Int?)
    mutating func add(_ number: Double?)
    mutating func add(_ flag: Bool?)
}

/// Collects the values for `StatementArguments` or a `PersistenceContainer`.
struct ValueListSink: ColumnSink {
    var values: [(any DatabaseValueConvertible)?] = []

    mutating func add(_ text: String?) { values.append(text) }
    mutating func add(_ number: Int?) { values.append(number) }
    mutating func add(_ number: Double?) { values.append(number) }
    mutating func add(_ flag: Bool?) { values.append(flag) }
}

/// Binds each value to the next parameter of a raw statement.
struct RawStatementSink: ColumnSink {
    let raw: RawStatement
    private var index: Int32 = 1

    init(_ raw: RawStatement) { self.raw = raw }

    mutating func add(_ text: String?) { raw.bind(text, at: next()) }
    mutating func add(_ number: Int?) { raw.bind(number, at: next()) }
    mutating func add(_ number: Double?) { raw.bind(number, at: next()) }
    mutating func add(_ flag: Bool?) { raw.bind(flag, at: next()) }

    private mutating func next() -> Int32 {
        defer { index += 1 }
        return index
    }
}
