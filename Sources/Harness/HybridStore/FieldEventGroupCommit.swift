import GRDB

/// Group commit for field-event batches: batches that arrive while a transaction is being written wait and then
/// share the next one, so concurrent uploads pay one `fsync` together instead of one each. With
/// `synchronous = FULL` a commit costs a synchronous write of the WAL (≈ 2–5 ms on this machine's disk), which
/// alone caps one-batch-per-commit ingest near 100–200 commits a second. A lone batch is written at once, as before.
/// Each batch runs in its own savepoint, so a batch that fails is rolled back and answered with its error while
/// the others in the transaction are stored.
actor FieldEventGroupCommit {
    typealias Outcome = SQLiteFieldEventStore.InsertOutcome

    private struct Waiting {
        var events: [FieldEventRecord]
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    private let database: HybridDatabase
    private var waiting: [Waiting] = []
    private var writing = false

    init(database: HybridDatabase) {
        self.database = database
    }

    /// Stores `events` in the next transaction and answers once it is committed.
    func insert(_ events: [FieldEventRecord]) async throws(StoreError) -> Outcome {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                waiting.append(Waiting(events: events, continuation: continuation))
                if !writing {
                    writing = true
                    Task { await self.drain() }
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw database.mapError(error, operation: "store \(events.count) field events")
        }
    }

    /// Writes everything waiting, one transaction per round, until nothing is left.
    private func drain() async {
        while !waiting.isEmpty {
            let group = waiting
            waiting = []
            let batches = group.map(\.events)
            let total = batches.reduce(0) { $0 + $1.count }
            do {
                let outcomes = try await database.write("store \(total) field events") { db in
                    batches.map { batch in
                        Result<Outcome, any Error> {
                            var outcome: Outcome?
                            try db.inSavepoint {
                                outcome = try SQLiteFieldEventStore.insertBatch(batch, db: db)
                                return .commit
                            }
                            return outcome!
                        }
                    }
                }
                for (entry, outcome) in zip(group, outcomes) { entry.continuation.resume(with: outcome) }
            } catch {
                for entry in group { entry.continuation.resume(throwing: error) }
            }
        }
        writing = false
    }
}
