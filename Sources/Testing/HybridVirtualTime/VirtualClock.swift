package import Foundation
import Synchronization

/// A clock whose time moves only when told: `router check` replays stored outcomes through the real `Router` on
/// it (a replay model sleeps until its stored end, the router's deadline and hedge timers until theirs, and the
/// replay's executor wakes them one at a time in time order with `wakeNext()`), and the router's tests run their
/// timers on it instead of sleeping (their scripted models move it with `advance(to:)` and `expire(through:)`).
/// Package-only: not part of the app API.
///
/// Ties are deterministic and the simulator's (`RouteSimulator`). `wakeNext()` wakes sleepers due at one instant
/// by when they began to sleep (the call started earlier first: in a hedged race its end, or its cut, is read
/// before the other call's), then by `SleeperKind` (an answer before a timer begun with it: an answer arriving
/// exactly at its timeout or at the hedge time wins, as a call is cut or hedged only when slower), then by who
/// slept first. `advance(to:)` wakes sleepers whose instant lies strictly before the new time, while
/// `expire(through:)` also wakes those due at that instant.
package final class VirtualClock: Sendable {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var since: ContinuousClock.Instant
        var kind: SleeperKind
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
    /// `kind` orders it among sleepers due at the same instant (see the type's notes): the router's timers are
    /// `.timer`, a replayed call's end is `.answer`. `since`: when the wait counts as begun for that order (default
    /// now); a replayed stream's end counts from its call's start, as the call's end does when it is not streamed.
    package func sleep(
        until deadline: ContinuousClock.Instant, kind: SleeperKind = .timer, since: ContinuousClock.Instant? = nil
    ) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline < state.now || state.expiredThrough.map({ deadline <= $0 }) == true { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, since: since ?? state.now, kind: kind, continuation: continuation)
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

    /// Moves time to the earliest sleeper's instant (never back) and wakes that one sleeper only, so what it
    /// starts runs before the next is woken; false when nobody sleeps. The replay's executor calls it whenever it
    /// has no job left to run.
    package func wakeNext() -> Bool {
        let next = state.withLock { state -> Sleeper? in
            let first = state.sleepers.min { a, b in
                (a.value.deadline, a.value.since, a.value.kind.order, a.key) < (b.value.deadline, b.value.since, b.value.kind.order, b.key)
            }
            guard let first else { return nil }
            state.now = max(state.now, first.value.deadline)
            return state.sleepers.removeValue(forKey: first.key)
        }
        next?.continuation.resume()
        return next != nil
    }

    /// Suspends until the calling task is cancelled (a scripted model of the router's tests that runs past its
    /// deadline waits here for the router to cut it).
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
