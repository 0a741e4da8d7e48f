public import HybridStore

/// Why a re-scoring could not run; results already written to the new run are kept.
public enum RescoreError: Error, Sendable, CustomStringConvertible {
    /// The source run is not in the database.
    case sourceNotFound(String)
    /// The store failed (the new run id may already exist).
    case store(StoreError)

    public var description: String {
        switch self {
        case .sourceNotFound(let id): "run \(id) is not in the database; `hybrid report` lists runs"
        case .store(let error): error.description
        }
    }
}
