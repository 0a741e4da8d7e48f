import Dispatch
import Foundation
import HybridCore
import Synchronization
import HybridVirtualTime

/// The deterministic executor a replayed request runs on: discrete-event simulation of the router on a
/// `VirtualClock`. Every task of the request (the router's walk, its deadline races, a hedge's calls and timer,
/// the replay models) runs here, one job at a time on one thread of its own; when no job is left, time moves to
/// the earliest sleeper's instant and wakes that sleeper alone (`VirtualClock.wakeNext()`). So two calls racing
/// on one clock end in the order of their virtual instants, ties broken as the clock documents, whatever the
/// machine's load: the replay of a hedged request is as deterministic as the simulator's.
///
/// Each executor runs one root (`run(_:)`) and stops when it returns; a job enqueued after that (a straggler of a
/// cancelled call) goes to the global pool.
final class ReplayExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        /// The root returned: run what is queued, move time no more, then stop.
        var finished = false
        /// The thread has stopped; later jobs go to the global pool.
        var stopped = false
        /// The thread waits for a job or the root's end.
        var waiting = false
    }

    /// What the thread does next.
    private enum Step {
        case run(UnownedJob)
        case moveTime
        case stop
    }

    private let clock: VirtualClock
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// An executor moving `clock`; its thread starts with `run(_:)`.
    init(clock: VirtualClock) {
        self.clock = clock
    }

    /// Runs `body` as the root task on this executor, moving the clock as the tasks sleep, and returns its result
    /// once it returns. Cancelling the caller cancels the root.
    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        let thread = Thread { [self] in drain() }
        thread.name = "router-check replay"
        thread.start()
        let root = Task(executorPreference: self) { [self] in
            let result = await body()
            finish()
            return result
        }
        return await withTaskCancellationHandler { await root.value } onCancel: { root.cancel() }
    }

    /// Queues a job for the replay's thread (a task of the request became runnable); after the root returned, hands
    /// it to the global pool instead, as nothing here will run it.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.jobs.append(job)
            return true
        }
        guard accepted else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
            return
        }
        signalIfWaiting()
    }

    /// The thread's loop: run jobs; when none is left, move time; when nothing sleeps either, wait.
    private func drain() {
        while true {
            switch nextStep() {
            case .run(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .moveTime:
                if !clock.wakeNext() { waitUnlessReady() }
            case .stop:
                return
            }
        }
    }

    private func nextStep() -> Step {
        state.withLock { state -> Step in
            if state.head < state.jobs.count {
                defer {
                    state.head += 1
                    if state.head == state.jobs.count {
                        state.jobs.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                }
                return .run(state.jobs[state.head])
            }
            if state.finished {
                state.stopped = true
                return .stop
            }
            return .moveTime
        }
    }

    /// Nothing to run and nobody asleep: some task is still on its way here (a continuation resumed by another
    /// thread), or the root is about to finish. Waits for either unless it already happened.
    private func waitUnlessReady() {
        let wait = state.withLock { state -> Bool in
            guard state.head == state.jobs.count, !state.finished else { return false }
            state.waiting = true
            return true
        }
        if wait { wakeUp.wait() }
    }

    private func finish() {
        state.withLock { $0.finished = true }
        signalIfWaiting()
    }

    private func signalIfWaiting() {
        let waiting = state.withLock { state -> Bool in
            defer { state.waiting = false }
            return state.waiting
        }
        if waiting { wakeUp.signal() }
    }
}
