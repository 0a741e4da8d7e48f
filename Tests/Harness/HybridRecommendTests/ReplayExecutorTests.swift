import HybridCore
@testable import HybridRecommend
import Synchronization
import Testing
import HybridVirtualTime

/// The replay executor moves virtual time only when every task has run, and wakes sleepers due at one instant as
/// the simulator counts ties: the one begun first, then an answer before a timer, whatever order they slept in.
@Suite struct ReplayExecutorTests {
    /// Wakes in order, each with the virtual time it woke at (ms since the start).
    final class WakeLog: Sendable {
        private let entries = Mutex<[String]>([])

        func add(_ name: String, at ms: Double) { entries.withLock { $0.append("\(name) at \(Int(ms))") } }

        var all: [String] { entries.withLock { $0 } }
    }

    @Test("an answer due with a timer begun at the same instant wakes first; between two begun apart, the earlier")
    func tiesFollowTheSimulator() async {
        let clock = VirtualClock()
        let start = clock.now
        let log = WakeLog()
        let sleep: @Sendable (String, Int, VirtualClock.SleeperKind) async -> Void = { name, ms, kind in
            try? await clock.sleep(until: start + .milliseconds(ms), kind: kind)
            log.add(name, at: (clock.now - start).milliseconds)
        }
        await ReplayExecutor(clock: clock).run {
            await withTaskGroup(of: Void.self) { group in
                // Slept first, yet the answer due with it wins the tie.
                group.addTask { await sleep("hedge timer", 100, .timer) }
                group.addTask { await sleep("first answer", 100, .answer) }
                // A timer begun at 0 and an answer begun at 50, both due at 300: the call started first is read first.
                group.addTask { await sleep("first call's cut", 300, .timer) }
                group.addTask {
                    try? await clock.sleep(until: start + .milliseconds(50), kind: .timer)
                    await sleep("raced answer", 300, .answer)
                }
            }
        }
        #expect(log.all == ["first answer at 100", "hedge timer at 100", "first call's cut at 300", "raced answer at 300"])
    }

    @Test("a cancelled sleeper never wakes, and time does not move to its instant")
    func cancelledSleepersAreForgotten() async {
        let clock = VirtualClock()
        let start = clock.now
        let log = WakeLog()
        let executor = ReplayExecutor(clock: clock)
        await executor.run {
            let slow = Task(executorPreference: executor) {
                try? await clock.sleep(until: start + .seconds(60), kind: .answer)
                log.add(Task.isCancelled ? "slow cancelled" : "slow answer", at: (clock.now - start).milliseconds)
            }
            try? await clock.sleep(until: start + .milliseconds(200), kind: .timer)
            slow.cancel()
            await slow.value
            log.add("root", at: (clock.now - start).milliseconds)
        }
        #expect(log.all == ["slow cancelled at 200", "root at 200"])
    }
}
