/// Why a store operation failed, with the database path so the user knows which file to look at.
///
/// Messages never contain secrets: the store holds no API keys, and SQL parameters are not echoed.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened or created (missing permission, not a SQLite file, disk full).
    case cannotOpen(path: String, reason: String)
    /// The file was written by a newer build whose migrations this build does not know; opening it could corrupt it.
    case schemaTooNew(path: String, found: Int, known: Int)
    /// A schema migration failed; the database was left at the last migration that succeeded.
    case migrationFailed(path: String, reason: String)
    /// `createRun` was given an id that is already in the database.
    case runAlreadyExists(path: String, runID: String)
    /// The run id names no run in the database (for example a typo in `--resume RUN`).
    case runNotFound(path: String, runID: String)
    /// A value cannot be stored as given (a non-finite number, a negative amount).
    case invalidValue(field: String, reason: String)
    /// A stored row could not be decoded (edited by hand, or written by an incompatible build).
    case unreadableRow(path: String, table: String, reason: String)
    /// A read or write failed in SQLite (I/O error, disk full, locked for longer than the busy timeout).
    case operationFailed(path: String, operation: String, reason: String)
    /// The task was cancelled before the operation finished; nothing was written by it.
    case cancelled(path: String, operation: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open database at \(path): \(reason); check that the directory is writable and the file is a HybridAI SQLite database"
        case .schemaTooNew(let path, let found, let known):
            "database at \(path) has schema version \(found) newer than this build knows (\(known)); upgrade hybrid or point it at another database file"
        case .migrationFailed(let path, let reason):
            "cannot migrate database at \(path): \(reason)"
        case .runAlreadyExists(let path, let runID):
            "run \(runID) already exists in \(path); resume it with --resume \(runID) or choose another run id"
        case .runNotFound(let path, let runID):
            "no run \(runID) in \(path); list runs to find the right id"
        case .invalidValue(let field, let reason):
            "cannot store \(field): \(reason)"
        case .unreadableRow(let path, let table, let reason):
            "database at \(path): unreadable row in table \(table) (\(reason)); the file may have been edited or written by an incompatible build"
        case .operationFailed(let path, let operation, let reason):
            "database at \(path): cannot \(operation): \(reason)"
        case .cancelled(let path, let operation):
            "database at \(path): \(operation) was cancelled before it finished"
        }
    }
}
