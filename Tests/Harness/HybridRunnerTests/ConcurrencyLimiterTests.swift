import HybridRunner
import Testing

@Suite struct ConcurrencyLimiterTests {
    @Test func neverLetsMoreThanTheLimitRunAtOnce() async throws {
        let limiter = ConcurrencyLimiter(limit: 3)
        let peak = PeakCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await limiter.withSlot {
                        await peak.enter()
                        await Task.yield()
                        try await Task.sleep(for: .milliseconds(1))
                        await peak.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await peak.max == 3)
        #expect(await limiter.active == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueWithoutTakingASlot() async throws {
        let limiter = ConcurrencyLimiter(limit: 1)
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await limiter.release()
        #expect(await limiter.active == 0)
    }
}

private actor PeakCounter {
    private var current = 0
    private(set) var max = 0
    func enter() {
        current += 1
        max = Swift.max(max, current)
    }
    func leave() { current -= 1 }
}
