import GRDB

/// A value type the store maps to one table row, with explicit column names.
///
/// The public record types conform to this internal protocol rather than to GRDB's record protocols so that
/// GRDB stays an implementation detail: apps and the CLI see plain value types.
protocol StoredRecord: Sendable {
    static var databaseTableName: String { get }
    init(row: Row) throws
    func encode(to container: inout PersistenceContainer) throws
}

/// The GRDB record wrapper around a `StoredRecord`, used only inside the store.
struct Stored<Value: StoredRecord>: FetchableRecord, PersistableRecord, Sendable {
    static var databaseTableName: String { Value.databaseTableName }

    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    init(row: Row) throws {
        do {
            value = try Value(row: row)
        } catch var error as RecordDecodingError {
            error.table = error.table ?? Value.databaseTableName
            throw error
        } catch {
            // GRDB's RowDecodingError: a NULL or wrongly typed value in a column.
            throw RecordDecodingError(table: Value.databaseTableName, reason: "\(error)")
        }
    }

    func encode(to container: inout PersistenceContainer) throws {
        try value.encode(to: &container)
    }
}
