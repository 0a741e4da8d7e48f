/// An async semaphore: at most `limit` holders at once, waiters served in arrival order.
///
/// The runner holds one global limiter and one per model, so a slow local model cannot starve cloud arms and a
/// provider's own concurrency cap is respected. A waiter whose task is cancelled leaves the queue at once.
public actor ConcurrencyLimiter {
    /// Most holders at once; further callers wait until one releases.
    public nonisolated let limit: Int
    private var inUse = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// - Parameter limit: at least 1; smaller values are raised to 1.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a slot. Throws `CancellationError` if the task is cancelled while waiting.
    public func acquire() async throws {
        if inUse < limit {
            inUse += 1
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Returns a slot; hands it straight to the oldest waiter if there is one.
    public func release() {
        if waiters.isEmpty {
            inUse = max(0, inUse - 1)
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    /// Runs `body` holding a slot.
    public func withSlot<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        do {
            let value = try await body()
            release()
            return value
        } catch {
            release()
            throw error
        }
    }

    /// Slots held right now (for progress display and tests).
    public var active: Int { inUse }

    private func cancelWaiter(_ id: UInt64) {
        if let index = waiters.firstIndex(where: { $0.id == id }) {
            waiters.remove(at: index).continuation.resume(throwing: CancellationError())
        }
    }
}
