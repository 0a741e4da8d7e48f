import HybridCore
import Synchronization

/// How a model call raced against the deadline ended.
enum RaceOutcome<Value: Sendable>: Sendable {
    /// The call returned or threw before the deadline.
    case finished(Result<Value, GenerationError>)
    /// The deadline came first; the call was cancelled.
    case deadline
    /// The caller's task was cancelled; the call was cancelled.
    case callerCancelled

    /// Whether the call returned a value.
    var isAnswer: Bool {
        if case .finished(.success) = self { true } else { false }
    }
}

/// Runs a model call against a sleep until the deadline; whichever ends first wins and the other is cancelled.
///
/// Unlike a task group, which waits for every child before returning, the race returns the moment the deadline
/// fires even if the provider is slow to notice cancellation (a local server still starting, a blocked read):
/// the losing call is cancelled and left to wind down on its own, so the caller's deadline holds.
enum DeadlineRace {
    static func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant?,
        clock: RouterClock,
        _ work: @escaping @Sendable () async throws(GenerationError) -> Value
    ) async -> RaceOutcome<Value> {
        guard let deadline else {
            do {
                return .finished(.success(try await work()))
            } catch {
                return Task.isCancelled ? .callerCancelled : .finished(.failure(error))
            }
        }
        let gate = Gate<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<RaceOutcome<Value>, Never>) in
                gate.install(continuation)
                let call = Task.starting(on: clock.taskExecutor) {
                    let result: Result<Value, GenerationError>
                    do throws(GenerationError) {
                        result = .success(try await work())
                    } catch {
                        result = .failure(error)
                    }
                    gate.resolve(.finished(result))
                }
                let timer = Task.starting(on: clock.taskExecutor) {
                    do {
                        try await clock.sleep(deadline)
                        gate.resolve(.deadline)
                    } catch {
                        // Cancelled because the call finished first.
                    }
                }
                gate.adopt(call, timer)
            }
        } onCancel: {
            gate.resolve(.callerCancelled)
        }
    }

    /// Resolves once: resumes the waiting caller and cancels both racers. Lock-protected because the call, the
    /// timer and the caller's cancellation handler resolve it from different threads.
    private final class Gate<Value: Sendable>: Sendable {
        private struct State {
            var outcome: RaceOutcome<Value>?
            var continuation: CheckedContinuation<RaceOutcome<Value>, Never>?
            var tasks: [Task<Void, Never>] = []
        }

        private let state = Mutex(State())

        func install(_ continuation: CheckedContinuation<RaceOutcome<Value>, Never>) {
            let early = state.withLock { state -> RaceOutcome<Value>? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func adopt(_ tasks: Task<Void, Never>...) {
            let resolved = state.withLock { state -> Bool in
                if state.outcome != nil { return true }
                state.tasks = tasks
                return false
            }
            if resolved { tasks.forEach { $0.cancel() } }
        }

        func resolve(_ outcome: RaceOutcome<Value>) {
            let taken = state.withLock { state -> (CheckedContinuation<RaceOutcome<Value>, Never>?, [Task<Void, Never>])? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer {
                    state.continuation = nil
                    state.tasks = []
                }
                return (state.continuation, state.tasks)
            }
            guard let (continuation, tasks) = taken else { return }
            tasks.forEach { $0.cancel() }
            continuation?.resume(returning: outcome)
        }
    }
}
