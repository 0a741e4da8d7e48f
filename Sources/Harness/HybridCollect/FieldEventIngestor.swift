import HybridCore
public import HybridStore

/// Validates decoded events and stores the valid ones; the one path shared by `hybrid collect`, `hybrid ingest`
/// and the ingest benchmark.
public struct FieldEventIngestor: Sendable {
    /// Where events go: a SQLite file or the shared PostgreSQL database, whichever `--db` named.
    public let store: any FieldEventStore

    /// An ingestor writing to `store`.
    public init(store: any FieldEventStore) {
        self.store = store
    }

    /// Stores every valid event of `events` in one transaction and answers with what was accepted, what was
    /// already there, and each refused event's index and reasons.
    package func ingest(_ events: [Result<RouteEvent, FieldEventRejection>]) async throws(StoreError)
        -> RouteEventBatchResponse
    {
        var records: [FieldEventRecord] = []
        records.reserveCapacity(events.count)
        var rejected: [RouteEventBatchResponse.Rejection] = []
        for (index, decoded) in events.enumerated() {
            switch decoded.flatMap(FieldEventRecord.validated) {
            case .success(let record): records.append(record)
            case .failure(let rejection): rejected.append(.init(index: index, reason: rejection.description))
            }
        }
        let outcome = try await store.insert(records)
        return RouteEventBatchResponse(accepted: outcome.accepted, duplicates: outcome.duplicates, rejected: rejected)
    }
}
