package import Foundation

/// The router's sense of time: deadlines, cooldowns and the billing month. Injectable so tests can jump ahead.
///
/// `now` and `sleep` must agree (sleeping until `now() + d` returns after `d` in that clock's time); `date` gives
/// the wall-clock date whose UTC month the spend ledger is keyed by.
package struct RouterClock: Sendable {
    /// The current instant.
    var now: @Sendable () -> ContinuousClock.Instant
    /// The current wall-clock date (for the billing month).
    var date: @Sendable () -> Date
    /// Returns at `deadline` (in `now`'s time), or throws `CancellationError` when the task is cancelled first.
    var sleep: @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void
    /// Where the router's own tasks (a call raced against its deadline, a hedge's calls and timer, a stream's
    /// walk) run: nil, the global pool, in real time. A replay on a virtual clock sets the executor that moves
    /// that clock, because unstructured tasks do not inherit a task executor preference and a task running
    /// elsewhere would let it move time while work is still pending.
    var taskExecutor: (any TaskExecutor)?

    /// Creates a clock from its three functions; `now` and `sleep` must use the same time base.
    package init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        date: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.now = now
        self.date = date
        self.sleep = sleep
        self.taskExecutor = taskExecutor
    }

    /// Real time: `ContinuousClock` and `Date()`. Sleeps ask for zero tolerance, so the timer is not coalesced
    /// late and a deadline fires on time.
    static let system = RouterClock(
        now: { ContinuousClock.now },
        date: { Date() },
        sleep: { deadline in try await Task.sleep(until: deadline, tolerance: .zero, clock: .continuous) }
    )
}
