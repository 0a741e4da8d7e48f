import Foundation
public import HybridCore
public import HybridStore

extension EvalRunner {
    /// Runs keys of `plan` as one of many workers sharing `queue` (a PostgreSQL store), until every key is stored.
    ///
    /// The first worker creates the run and queues every planned key in one transaction; the others find it and
    /// join after ``ResumeCheck`` confirms they run the same plan. Each worker claims batches of keys under a lease,
    /// runs them like `run` does, renewing the lease while the batch runs (``LeaseHeartbeat``), and stores the results
    /// (which takes them off the queue). A worker with nothing to
    /// claim while keys are still leased elsewhere waits: if their worker was killed, their lease expires and they
    /// are claimed again. The worker that finds the queue empty marks the run completed (every worker that does so
    /// writes the same status). Cancelling a worker leaves its leased keys to expire; the run stays running.
    public func runWorker(
        _ plan: EvalPlan,
        queue: any WorkQueue,
        worker: WorkerOptions,
        arguments: JSONValue = .object([:]),
        progress: @escaping @Sendable (EvalProgress) -> Void = { _ in }
    ) async throws(EvalError) -> EvalSummary {
        // Every key is queued up front, so a streamed dataset is checked (and its case ids read) first.
        try await plan.validateCases()
        let keyed = plan.workItems.compactMap { item in key(plan, item).map { ($0, item) } }
        let keys = keyed.map(\.0)
        let itemsByKey = Dictionary(keyed, uniquingKeysWith: { first, _ in first })
        // Queued in the plan's seeded order, so every worker takes keys in the same spread over arms.
        if try await !joinOrCreate(plan, queue: queue, keys: keys, arguments: arguments) {
            return EvalSummary(
                runID: plan.runID, stored: plan.plannedCount, planned: plan.plannedCount, errors: 0, cacheHits: 0,
                unavailableArms: [], interrupted: false, alreadyCompleted: true)
        }
        let execution = await prepareExecution(plan)
        let counter = ProgressCounter(total: plan.plannedCount, alreadyDone: 0)
        let storeFailure = StoreFailure()
        let writer = ResultWriter(store: store) { record in progress(counter.record(record)) }
        let heartbeat = LeaseHeartbeat(queue: queue, run: plan.runID, worker: worker)
        var finished = false
        do {
            while !Task.isCancelled, storeFailure.error == nil {
                let claimed = try await queue.claim(
                    run: plan.runID, worker: worker.workerID, limit: worker.batchSize, lease: worker.lease)
                if claimed.isEmpty {
                    if try await queue.queuedCount(run: plan.runID) == 0 {
                        finished = true
                        break
                    }
                    try? await Task.sleep(for: worker.pollInterval)
                    continue
                }
                // Stored before the next claim, under a renewed lease: a batch's keys leave the queue while this
                // worker still holds them, however long the batch takes.
                await heartbeat.whileRunning {
                    await dispatch(claimed.compactMap { itemsByKey[$0] }, execution, writer: writer, storeFailure: storeFailure)
                    do {
                        try await writer.finish()
                    } catch {
                        storeFailure.set(error)
                    }
                }
            }
        } catch {
            throw .store(error)
        }
        if let error = storeFailure.error { throw .store(error) }
        if finished, let error = await Self.closeOutsideCancellation(run: plan.runID, interrupted: false, in: store) {
            throw .store(error)
        }
        let final = counter.snapshot()
        let unavailable = execution.context.unavailable
        return EvalSummary(
            runID: plan.runID, stored: final.doneThisSession, planned: plan.plannedCount, errors: final.errors,
            unavailable: final.unavailable, cacheHits: final.cacheHits,
            unavailableArms: plan.arms.compactMap { arm in unavailable[arm.modelID].map { (arm, $0) } },
            interrupted: !finished, alreadyCompleted: false, answeredThisSession: counter.answered())
    }

    /// Creates the run with its queue, or joins the existing one after checking it has the same plan. False when
    /// the run is already completed (nothing to do).
    private func joinOrCreate(
        _ plan: EvalPlan, queue: any WorkQueue, keys: [ResultKey], arguments: JSONValue
    ) async throws(EvalError) -> Bool {
        let datasetHash: String
        do {
            datasetHash = try await plan.dataset.contentHashValue()
        } catch {
            throw .dataset(error)
        }
        let record = RunRecord(
            id: plan.runID, features: [plan.feature], datasetPath: plan.dataset.path,
            datasetHash: datasetHash, configVersion: plan.configVersion, configHash: plan.configHash,
            arguments: ResumeCheck.arguments(arguments, recording: plan), plannedCount: plan.plannedCount,
            skippedInvalidLines: plan.dataset.skipped.count, seed: plan.seed)
        do {
            if try await queue.createRun(record, queueing: keys) { return true }
        } catch {
            throw .store(error)
        }
        return try await !ResumeCheck.check(plan, store: queue).alreadyCompleted
    }
}
