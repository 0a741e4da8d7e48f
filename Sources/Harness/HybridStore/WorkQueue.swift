import Foundation

/// A result store that many worker processes fill at once: the run's planned keys wait in a queue, each worker
/// leases a batch, renews the lease while it runs the batch and stores the results, and a key whose worker died
/// comes back when its lease expires.
///
/// Storing a result (any `insertResults` method) takes its key off the queue in the same transaction, so a key is
/// either queued or stored, never lost. The results table stays unique on the key, so a key two workers both ran
/// (a lease that expired while its worker still ran) is stored once.
public protocol WorkQueue: ResultStore {
    /// Creates the run and queues `keys` in one transaction. Returns false, changing nothing, when the run already
    /// exists: the first worker plans the run and the others join it.
    func createRun(_ run: RunRecord, queueing keys: [ResultKey]) async throws(StoreError) -> Bool
    /// Leases up to `limit` queued keys of the run that nobody holds (or whose lease expired) to `worker` until
    /// `lease` from now; empty when none is free right now. Concurrent callers never get the same key.
    func claim(run: String, worker: String, limit: Int, lease: Duration) async throws(StoreError) -> [ResultKey]
    /// How many keys of the run are still queued, leased or not: 0 once every key is stored.
    func queuedCount(run: String) async throws(StoreError) -> Int
    /// Extends every lease `worker` still holds in the run to `lease` from now, and returns how many keys it holds.
    ///
    /// A worker calls this while it runs a batch (`EvalRunner.runWorker` does so at a third of the lease), so a batch
    /// that outlives one lease is not claimed, generated and billed again by another worker. Keys already stored, or
    /// claimed by another worker after the lease ran out, are not touched. A killed worker stops renewing, so its
    /// keys still come back one lease after its last renewal.
    func renewLeases(run: String, worker: String, lease: Duration) async throws(StoreError) -> Int
}
