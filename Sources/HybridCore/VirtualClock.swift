package import Foundation
import Synchronization

/// A clock whose time moves only when told: `router check` replays stored outcomes through the real `Router` on
/// it (a replay model advances it by each stored latency, and the router's deadline timers wake when virtual time
/// passes their instant), and the router's tests run their timers on it instead of sleeping. Package-only: not
/// part of the app API.
///
/// Ties are deterministic: `advance(to:)` wakes sleepers whose instant lies strictly before the new time, so an
/// answer arriving exactly at a timeout wins the race (as the simulator counts it: cut only when slower), while
/// `expire(through:)` also wakes those due at that instant, which is how a replayed call that runs past its
/// deadline hands the race to the timer.
package final class VirtualClock: Sendable {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var expiredThrough: ContinuousClock.Instant?
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    private let origin: ContinuousClock.Instant
    private let startDate: Date

    /// A clock at `start`, whose wall-clock date is `date` at that instant.
    package init(start: ContinuousClock.Instant = .now, date: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Mutex(State(now: start))
        origin = start
        startDate = date
    }

    /// The current virtual instant.
    package var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// Moves time to `instant` (never back) and wakes sleepers due strictly before it.
    package func advance(to instant: ContinuousClock.Instant) {
        wake { state in
            state.now = max(state.now, instant)
            return { $0 < instant }
        }
    }

    /// Moves time to `instant` (never back) and wakes every sleeper due at or before it.
    package func expire(through instant: ContinuousClock.Instant) {
        wake { state in
            state.now = max(state.now, instant)
            state.expiredThrough = max(state.expiredThrough ?? instant, instant)
            return { $0 <= instant }
        }
    }

    /// Suspends until `deadline` has passed in virtual time, or throws `CancellationError` when cancelled first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline < state.now || state.expiredThrough.map({ deadline <= $0 }) == true { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Suspends until the calling task is cancelled (a replayed call that runs past its deadline waits here for
    /// the router to cut it).
    package func waitForCancellation() async {
        try? await sleep(until: now + .seconds(100 * 365 * 86_400))
    }

    /// The wall-clock date at the current virtual instant.
    package func date() -> Date {
        startDate.addingTimeInterval((now - origin).seconds)
    }

    private func wake(_ update: (inout State) -> (ContinuousClock.Instant) -> Bool) {
        let due = state.withLock { state -> [Sleeper] in
            let isDue = update(&state)
            let ids = state.sleepers.filter { isDue($0.value.deadline) }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
