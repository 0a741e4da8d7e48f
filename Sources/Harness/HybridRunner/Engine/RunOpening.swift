import HybridStore
import Synchronization

/// What a run over a streamed dataset must know before its first result is stored: that the whole file is valid
/// (checked while the first requests are already out), its hash (computed meanwhile on a thread of its own), and
/// then the run record itself, created only once the check passed. So a bad line found late stops the run with the same `file:line` error a loaded dataset gives
/// before starting, and the database is left as it was: no run, no results (the requests sent meanwhile are lost).
final class RunOpening: Sendable {
    private let task: Task<EvalError?, Never>
    private let failed: Failure

    private final class Failure: Sendable {
        let value = Mutex<EvalError?>(nil)
    }

    /// Starts checking `plan`'s dataset; `run` is created in `store` once the check passed, with the dataset's hash
    /// (nil: it exists).
    init(plan: EvalPlan, creating run: RunRecord?, in store: any ResultStore) {
        let failed = Failure()
        self.failed = failed
        task = Task {
            let error = await Self.open(plan, creating: run, in: store)
            if let error { failed.value.withLock { $0 = error } }
            return error
        }
    }

    /// Set as soon as the check failed, so dispatch stops without waiting for it.
    var failure: EvalError? { failed.value.withLock { $0 } }

    /// Waits for the check (and the run's creation); throws why the run cannot go on.
    func wait() async throws(EvalError) {
        if let error = await task.value { throw error }
    }

    private static func open(_ plan: EvalPlan, creating run: RunRecord?, in store: any ResultStore) async -> EvalError? {
        do {
            try await plan.validateCases()
        } catch {
            return error
        }
        guard var run else { return nil }
        do {
            run.datasetHash = try await plan.dataset.contentHashValue()
        } catch {
            return .dataset(error)
        }
        do {
            try await store.createRun(run)
        } catch {
            return .store(error)
        }
        return nil
    }
}
