package import HybridRouter

extension VirtualClock {
    /// The clock as the router takes it; its sleeps are timers (`SleeperKind.timer`).
    package var routerClock: RouterClock { routerClock(taskExecutor: nil) }

    /// The clock as the router takes it, its tasks running on `taskExecutor` (the replay executor that moves
    /// this clock, so no task of the router runs where the executor cannot see it).
    package func routerClock(taskExecutor: (any TaskExecutor)?) -> RouterClock {
        RouterClock(
            now: { self.now }, date: { self.date() }, sleep: { deadline in try await self.sleep(until: deadline, kind: .timer) },
            taskExecutor: taskExecutor)
    }
}
