package import HybridCore

extension VirtualClock {
    /// The clock as the router takes it.
    package var routerClock: RouterClock {
        RouterClock(now: { self.now }, date: { self.date() }, sleep: { deadline in try await self.sleep(until: deadline) })
    }
}
