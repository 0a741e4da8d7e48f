import HybridCore
import Synchronization

/// The calls in flight of one hedged request. Each call runs in a task of its own and posts how it ended; the
/// hedge timer posts `hedgeDue`. The walk reads the posts in order, one at a time, so it decides as it would on the
/// virtual clock. Cancelling a position cancels that call's task: the provider's transport sees the cancellation
/// and tears its HTTP request down (libcurl's transfer is aborted, URLSession's task cancelled).
final class HedgeRace: Sendable {
    /// What happened in the race.
    enum Post: Sendable {
        /// The call at `position` ended.
        case ended(position: Int, outcome: RaceOutcome<GenerationResponse>, deliveredText: Bool)
        /// The hedge time came.
        case hedgeDue
        /// Progressive streaming: the call at `position` sent its first text (held until the walk lets it out).
        case firstText(position: Int)
    }

    private let posts: AsyncStream<Post>
    private let continuation: AsyncStream<Post>.Continuation
    /// Positions still in the race (the timer under `timerKey`) and their tasks. A position is live from before its
    /// task starts, so an end posted at once is not taken for a cancelled call's.
    private struct State {
        var live: Set<Int> = []
        var tasks: [Int: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())
    private static let timerKey = -1
    /// Where the calls and the timer run (`RouterClock.taskExecutor`); nil: the global pool.
    private let taskExecutor: (any TaskExecutor)?

    init(taskExecutor: (any TaskExecutor)? = nil) {
        (posts, continuation) = AsyncStream.makeStream(of: Post.self)
        self.taskExecutor = taskExecutor
    }

    /// Starts the call at `position`; its end is posted.
    func start(_ position: Int, _ call: @escaping @Sendable () async -> (RaceOutcome<GenerationResponse>, Bool)) {
        let continuation = self.continuation
        state.withLock { _ = $0.live.insert(position) }
        add(position, Task.starting(on: taskExecutor) {
            let (outcome, delivered) = await call()
            continuation.yield(.ended(position: position, outcome: outcome, deliveredText: delivered))
        })
    }

    /// Posts `hedgeDue` at `instant` unless disarmed first.
    func arm(at instant: ContinuousClock.Instant, clock: RouterClock) {
        let continuation = self.continuation
        state.withLock { _ = $0.live.insert(Self.timerKey) }
        add(Self.timerKey, Task.starting(on: taskExecutor) {
            guard (try? await clock.sleep(instant)) != nil else { return }
            continuation.yield(.hedgeDue)
        })
    }

    func disarm() { cancel(Self.timerKey) }

    /// Posts the first text of the call at `position`.
    func postFirstText(_ position: Int) {
        continuation.yield(.firstText(position: position))
    }

    /// Cancels the call at `position` (or the timer); its late end, if any, is never read.
    func cancel(_ position: Int) {
        state.withLock { state in
            state.live.remove(position)
            return state.tasks.removeValue(forKey: position)
        }?.cancel()
    }

    /// Cancels every call and the timer.
    func cancelAll() {
        let tasks = state.withLock { state in
            defer { state = State() }
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
        continuation.finish()
    }

    /// The next post of a call still in the race (or of the timer, when `timer`); nil when the caller was cancelled.
    func next(_ iterator: inout AsyncStream<Post>.Iterator, timer: Bool) async -> Post? {
        while true {
            let post = await withTaskCancellationHandler {
                await iterator.next()
            } onCancel: {
                self.cancelAll()
            }
            guard let post, !Task.isCancelled else { return nil }
            switch post {
            case .hedgeDue where timer && isRunning(Self.timerKey):
                cancel(Self.timerKey)
                return post
            case .firstText(let position) where isRunning(position):
                return post
            case .ended(let position, _, _) where isRunning(position):
                state.withLock { state in
                    state.live.remove(position)
                    state.tasks[position] = nil
                }
                return post
            default:
                continue  // a cancelled call's or a disarmed timer's late post
            }
        }
    }

    func makeIterator() -> AsyncStream<Post>.Iterator { posts.makeAsyncIterator() }

    private func isRunning(_ key: Int) -> Bool { state.withLock { $0.live.contains(key) } }

    /// Keeps the task to cancel; a position already cancelled (or ended) has its task cancelled at once.
    private func add(_ key: Int, _ task: Task<Void, Never>) {
        let keep = state.withLock { state in
            guard state.live.contains(key) else { return false }
            state.tasks[key] = task
            return true
        }
        if !keep { task.cancel() }
    }
}
