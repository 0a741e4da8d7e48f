import Foundation
public import HybridCore
import HybridConfig
public import HybridStore
import Synchronization
import Tracing

/// Sends every (case, arm, repeat) of a plan through its model and stores each result the moment it completes.
///
/// - Results are keyed by (run, case, arm, repeat) and inserted with insert-or-ignore, so a resumed run after a
///   crash, Ctrl-C or `kill -9` fills in exactly the missing keys.
/// - Cancelling the task that calls `run` stops dispatching at once and cancels requests in flight; their results
///   are not stored, so the run stays resumable. The run is then marked interrupted.
/// - Arms whose model is unavailable at start are not called; each of their keys is stored as an `unavailable`
///   error so reports show them instead of silently dropping them.
public struct EvalRunner: Sendable {
    /// Where runs and results are stored as they complete.
    public let store: any ResultStore
    /// Model instances by configured id; an arm whose model is missing is stored as unavailable.
    public let models: [String: any LanguageModel]
    /// Concurrency, retries, cache and scoring settings.
    public let options: EvalOptions

    /// Creates a runner.
    public init(store: any ResultStore, models: [String: any LanguageModel], options: EvalOptions = EvalOptions()) {
        self.store = store
        self.models = models
        self.options = options
    }

    /// Runs `plan`; with `resume` the run must exist with the same plan (``ResumeCheck``) and only its missing keys
    /// are sent. Resuming a completed run sends nothing, writes nothing and says so in the summary.
    public func run(
        _ plan: EvalPlan,
        resume: Bool = false,
        arguments: JSONValue = .object([:]),
        progress: @escaping @Sendable (EvalProgress) -> Void = { _ in }
    ) async throws(EvalError) -> EvalSummary {
        guard let start = try await prepareRun(plan, resume: resume, arguments: arguments) else {
            return EvalSummary(
                runID: plan.runID, stored: plan.plannedCount, planned: plan.plannedCount, errors: 0, cacheHits: 0,
                unavailableArms: [], interrupted: false, alreadyCompleted: true)
        }
        let execution = await prepareExecution(plan)
        let unavailable = execution.context.unavailable
        let completed = start.completed
        // A shard's own keys: its progress, completion and summary count only these.
        let items = plan.workOrder
        // A fresh run has nothing to leave out, and a streamed dataset's cases are not decoded to find that out.
        let pending = completed.isEmpty ? items : items.keeping { item in
            key(plan, item).map { !completed.contains($0) } ?? true
        }
        let counter = ProgressCounter(total: items.count, alreadyDone: items.count - pending.count)
        let storeFailure = StoreFailure()
        let opening = plan.dataset.isStreamed ? RunOpening(plan: plan, creating: start.deferredRun, in: store) : nil
        let telemetry = EvalTelemetry(tracer: options.tracer ?? InstrumentationSystem.tracer, plan: plan)
        let writer = ResultWriter(store: store, opening: opening) { record in
            telemetry?.record(record)
            progress(counter.record(record))
        }
        await dispatch(pending, execution, writer: writer, storeFailure: storeFailure, opening: opening)
        do {
            try await writer.finish()
        } catch {
            storeFailure.set(error)
        }
        // Also when nothing was stored: the check must pass and the run must exist before it can be closed.
        try await opening?.wait()
        if let error = storeFailure.error { throw .store(error) }

        let doneSoFar = counter.snapshot().done
        let interrupted = Task.isCancelled || doneSoFar < items.count
        // In a fresh task: the caller's task may be cancelled (Ctrl-C), and the status must still be written.
        if let error = await Self.closeOutsideCancellation(run: plan.runID, interrupted: interrupted, in: store) {
            throw .store(error)
        }
        let final = counter.snapshot()
        let summary = EvalSummary(
            runID: plan.runID, stored: final.done, planned: items.count, errors: final.errors,
            unavailable: final.unavailable, cacheHits: final.cacheHits,
            unavailableArms: plan.arms.compactMap { arm in unavailable[arm.modelID].map { (arm, $0) } },
            interrupted: interrupted, alreadyCompleted: false, answeredThisSession: counter.answered())
        telemetry?.finish(summary)
        return summary
    }

    /// What every sample of a plan shares: the sample context (models, scorer, arms found unavailable at start)
    /// and the per-model limiters.
    struct Execution: Sendable {
        var context: SampleContext
        var perModel: [String: ConcurrencyLimiter]
    }

    /// Checks which models are available and builds what `dispatch` needs.
    func prepareExecution(_ plan: EvalPlan) async -> Execution {
        var unavailable: [String: String] = [:]
        for modelID in Set(plan.arms.map(\.modelID)) {
            guard let model = models[modelID] else {
                unavailable[modelID] = "no adapter was built for this model"
                continue
            }
            if case .unavailable(let reason) = await model.availability() { unavailable[modelID] = reason.message }
        }
        let scorer = SampleScorer(
            schema: plan.featureConfig.outputSchema, constraints: plan.featureConfig.constraints, scorers: options.scorers)
        var perModel: [String: ConcurrencyLimiter] = [:]
        for modelID in Set(plan.arms.map(\.modelID)) {
            let limit = options.perModelConcurrencyOverrides[modelID] ?? options.perModelConcurrency
            // A limit the global one already enforces would only cost two actor hops per sample.
            if limit < options.concurrency { perModel[modelID] = ConcurrencyLimiter(limit: limit) }
        }
        let context = SampleContext(
            plan: plan, scorer: scorer, store: store, models: models, options: options, unavailable: unavailable)
        return Execution(context: context, perModel: perModel)
    }

    /// Runs `items` at most `options.concurrency` at a time and submits each result to `writer` as it completes.
    /// Stops dispatching on cancellation, on the first store failure (recorded in `storeFailure`) or when a streamed
    /// dataset's check fails (`opening`). Results may still be in the writer when this returns: `finish()` it.
    func dispatch(
        _ items: some Sequence<EvalPlan.WorkItem>, _ execution: Execution, writer: ResultWriter, storeFailure: StoreFailure,
        opening: RunOpening? = nil
    ) async {
        // Samples mostly wait on HTTP: on the transport's thread (when given) a response resumes its sample where
        // it arrived, and the sample's next request starts there, with no thread hop either way.
        await withTaskExecutorPreference(options.taskExecutor) {
            await dispatchInGroup(items, execution, writer: writer, storeFailure: storeFailure, opening: opening)
        }
    }

    private func dispatchInGroup(
        _ items: some Sequence<EvalPlan.WorkItem>, _ execution: Execution, writer: ResultWriter, storeFailure: StoreFailure,
        opening: RunOpening?
    ) async {
        let context = execution.context
        await withTaskGroup(of: Void.self) { group in
            // The global limit is the number of children alive at once. Reaping a finished child before adding the
            // next also frees its task storage: a group keeps finished children until they are awaited, which
            // grew memory by tens of kilobytes per sample over a whole run.
            var inFlight = 0
            for item in items {
                if inFlight >= options.concurrency {
                    await group.next()
                    inFlight -= 1
                }
                if Task.isCancelled || storeFailure.error != nil || opening?.failure != nil { break }
                let limiter = execution.perModel[item.arm.modelID]
                inFlight += 1
                group.addTask {
                    do {
                        try await limiter?.acquire()
                    } catch {
                        return
                    }
                    let outcome = await context.execute(item)
                    await limiter?.release()
                    // A cancelled request yields no record: its key stays missing, so a resume sends it again.
                    guard let (record, cache) = outcome else { return }
                    do {
                        try await writer.submit(record, cache: cache)
                    } catch {
                        storeFailure.set(error)
                    }
                }
            }
            await group.waitForAll()
        }
    }

    static func closeOutsideCancellation(run: String, interrupted: Bool, in store: any ResultStore) async -> StoreError? {
        let task = Task.detached { await close(run: run, interrupted: interrupted, in: store) }
        return await task.value
    }

    private static func close(run: String, interrupted: Bool, in store: any ResultStore) async -> StoreError? {
        do {
            if interrupted {
                try await store.markInterrupted(id: run, at: Date())
            } else {
                try await store.finishRun(id: run, at: Date())
            }
            return nil
        } catch {
            return error
        }
    }

    /// The item's key; nil when its case line is bad (a streamed dataset's check then stops the run).
    func key(_ plan: EvalPlan, _ item: EvalPlan.WorkItem) -> ResultKey? {
        guard let evalCase = try? plan.dataset.evalCase(at: item.caseIndex) else { return nil }
        return ResultKey(runID: plan.runID, caseID: evalCase.id, armID: item.arm.id, repeatIndex: item.repeatIndex)
    }

    /// How a run starts: the keys already stored, and the run record still to create once a streamed dataset
    /// passed its check (``RunOpening``).
    private struct Start {
        var completed: Set<ResultKey>
        var deferredRun: RunRecord?
    }

    /// How the run starts (nil: the run is already completed, so nothing is to be sent or changed).
    private func prepareRun(_ plan: EvalPlan, resume: Bool, arguments: JSONValue) async throws(EvalError) -> Start? {
        do {
            if resume {
                let check = try await ResumeCheck.check(plan, store: store)
                if check.alreadyCompleted { return nil }
                try await store.markResumed(id: plan.runID)
                return Start(completed: check.completedKeys)
            }
            let record = RunRecord(
                id: plan.runID, features: [plan.feature], datasetPath: plan.dataset.path,
                // A streamed dataset's hash is still being computed: `RunOpening` fills it in.
                datasetHash: plan.dataset.isStreamed ? "" : plan.dataset.contentHash, configVersion: plan.configVersion,
                configHash: plan.configHash, arguments: ResumeCheck.arguments(arguments, recording: plan),
                plannedCount: plan.plannedCount, skippedInvalidLines: plan.dataset.skipped.count, seed: plan.seed)
            // A streamed dataset's run is created once the whole file passed (`RunOpening`); a taken id must still
            // be refused before anything is sent, with the store's own error (creating it again throws that).
            if plan.dataset.isStreamed, try await store.run(id: plan.runID) == nil {
                return Start(completed: [], deferredRun: record)
            }
            try await store.createRun(record)
            return Start(completed: [])
        } catch let error as EvalError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.operationFailed(path: "", operation: "prepare run", reason: String(describing: error)))
        }
    }
}

/// Counts stored results for progress reporting; a lock, not an actor, since every sample passes through it.
final class ProgressCounter: Sendable {
    private struct State {
        var progress: EvalProgress
        /// Results with an answer (no error), by model id: a run that measured nothing on a model shows here.
        var answered: [String: Int] = [:]
    }
    private let state: Mutex<State>
    private let started = ContinuousClock.now

    init(total: Int, alreadyDone: Int) {
        state = Mutex(State(progress: EvalProgress(
            done: alreadyDone, total: total, errors: 0, cacheHits: 0, doneThisSession: 0, elapsedSeconds: 0)))
    }

    func record(_ result: ResultRecord) -> EvalProgress {
        let elapsed = (ContinuousClock.now - started).seconds
        return state.withLock { state in
            state.progress.done += 1
            state.progress.doneThisSession += 1
            if let error = result.error {
                if error.kind == GenerationError.Kind.unavailable.rawValue {
                    state.progress.unavailable += 1
                } else {
                    state.progress.errors += 1
                }
            } else {
                state.answered[result.modelID, default: 0] += 1
            }
            if result.cacheHit { state.progress.cacheHits += 1 }
            state.progress.elapsedSeconds = elapsed
            return state.progress
        }
    }

    func snapshot() -> EvalProgress { state.withLock { $0.progress } }

    /// Answered results of this session by model id.
    func answered() -> [String: Int] { state.withLock { $0.answered } }
}

/// The first store failure; once set, dispatch stops (results already stored stay).
final class StoreFailure: Sendable {
    private let storage = Mutex<StoreError?>(nil)
    var error: StoreError? { storage.withLock { $0 } }
    func set(_ error: any Error) {
        // A streamed dataset's failed check reaches the writer too; it is thrown as itself (`RunOpening`).
        if error is EvalError { return }
        storage.withLock { current in
            if current == nil {
                current = (error as? StoreError) ?? .operationFailed(path: "", operation: "insert result", reason: String(describing: error))
            }
        }
    }
}
