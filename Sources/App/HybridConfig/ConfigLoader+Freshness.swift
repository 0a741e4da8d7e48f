extension ConfigLoader {
    /// Where the first callers of `start()` stand in their wait for the first fetch (`Options.firstFetchWait`).
    enum FirstFetchWait {
        /// Nobody has called `start()` yet.
        case notBegun
        /// Callers wait for the first fetch until `timer` fires at the deadline.
        case waiting(waiters: [CheckedContinuation<Void, Never>], timer: Task<Void, Never>)
        /// The first fetch ended, the deadline passed, or there was nothing to wait for.
        case over
    }

    /// The resolution once the fetch in flight (if any) has ended: how a test waits for a background fetch.
    func settled() async -> ConfigResolution {
        if let fetching { return await fetching.value }
        return current
    }

    /// The fetch in flight, or a new one.
    func beginFetch() -> Task<ConfigResolution, Never> {
        if let fetching { return fetching }
        lastFetchBegan = monotonicNow()
        // Runs on this actor, so it cannot start before `fetching` is set below.
        let task = Task {
            let resolution = await self.fetchAndApply()
            self.fetchEnded()
            return resolution
        }
        fetching = task
        return task
    }

    private func fetchEnded() {
        fetching = nil
        fetchesEnded += 1
        endFirstFetchWait()
    }

    private var canFetch: Bool { sourceURL != nil && fetcher != nil }

    // MARK: - Refresh interval

    /// Starts the background task that fetches every `refreshInterval` (once; it ends when the loader goes away).
    func scheduleRefreshesIfAsked() {
        guard refreshSchedule == nil, let interval = options.refreshInterval, canFetch else { return }
        let sleep = self.sleep
        let now = monotonicNow
        refreshSchedule = Task { [weak self] in
            while let due = await self?.nextRefresh(every: interval) {
                if due > now() {
                    do { try await sleep(due) } catch { return }
                }
                await self?.refreshIfDue(every: interval)
            }
        }
    }

    /// When the next scheduled fetch is due: `interval` after the last one began, now when none has.
    private func nextRefresh(every interval: Duration) -> ContinuousClock.Instant {
        lastFetchBegan.map { $0 + interval } ?? monotonicNow()
    }

    /// Fetches (or joins the fetch in flight) unless a fetch began less than `interval` ago, say by `refresh()`.
    private func refreshIfDue(every interval: Duration) async {
        if let began = lastFetchBegan, monotonicNow() - began < interval, fetching == nil { return }
        _ = await beginFetch().value
    }

    // MARK: - First fetch wait

    /// At the first `start()`, begins the wait and the first fetch (unless one is running or has ended).
    func beginFirstFetchWaitIfAsked() {
        guard case .notBegun = firstFetchWaiting else { return }
        guard let wait = options.firstFetchWait, canFetch, fetchesEnded == 0 else {
            firstFetchWaiting = .over
            return
        }
        let deadline = monotonicNow() + wait
        _ = beginFetch()
        let sleep = self.sleep
        let timer = Task {
            try? await sleep(deadline)  // cancelled when the fetch ends first
            self.endFirstFetchWait()
        }
        firstFetchWaiting = .waiting(waiters: [], timer: timer)
    }

    /// Returns when the first fetch has ended or its deadline passed; at once after that.
    func waitForFirstFetch() async {
        guard case .waiting = firstFetchWaiting else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            guard case .waiting(var waiters, let timer) = firstFetchWaiting else { return continuation.resume() }
            waiters.append(continuation)
            firstFetchWaiting = .waiting(waiters: waiters, timer: timer)
        }
    }

    private func endFirstFetchWait() {
        guard case .waiting(let waiters, let timer) = firstFetchWaiting else { return }
        firstFetchWaiting = .over
        timer.cancel()
        for waiter in waiters { waiter.resume() }
    }
}
