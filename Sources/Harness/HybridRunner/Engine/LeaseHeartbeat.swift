import HybridStore

/// Keeps a worker's leases alive while it runs a batch, so a batch that takes longer than one lease is not claimed
/// (and generated, and billed) again by another worker.
///
/// Renews every `interval` (a fraction of the lease, so one late renewal on a loaded machine still lands in time)
/// and stops when the batch is stored or the worker is cancelled. A killed worker renews nothing, so its keys still
/// come back one lease after its last renewal.
struct LeaseHeartbeat: Sendable {
    let queue: any WorkQueue
    let run: String
    let worker: WorkerOptions

    /// Runs `batch` with the leases renewed in the background until it returns.
    func whileRunning(_ batch: () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await beat() }
            await batch()
            group.cancelAll()
        }
    }

    private func beat() async {
        while true {
            do {
                try await Task.sleep(for: worker.renewalInterval)
            } catch {
                return
            }
            // A failed renewal (the database briefly unreachable) is retried on the next beat; if the lease runs
            // out meanwhile, the cost is what it was without renewal: the key may run twice, and is stored once.
            _ = try? await queue.renewLeases(run: run, worker: worker.workerID, lease: worker.lease)
        }
    }
}
