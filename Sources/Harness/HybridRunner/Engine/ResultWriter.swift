import HybridStore

/// Stores results with group commit, off the samples' path: a sample hands its result over and frees its
/// concurrency slot at once; results arriving while a commit is in flight join the next one.
///
/// Each transaction on a durable SQLite file waits for an fsync (milliseconds). Committing one row per
/// transaction caps a run at a few hundred results per second, and holding a sample's slot until its commit
/// returned left the server idle for that long (a third of the throughput against a 20 ms endpoint). So a result is
/// counted as done (`onStored`) only once its commit returned, but the sample that produced it does not wait for
/// that; at most `limit` results wait in memory, then senders wait too. ``finish()`` waits for everything handed
/// over, so a run (and a cancelled one) closes only when its results are durable.
actor ResultWriter {
    private let store: any ResultStore
    /// Awaited before the first commit: a streamed dataset's validation and the deferred creation of the run.
    private let opening: RunOpening?
    private let onStored: @Sendable (ResultRecord) -> Void
    private let limit: Int
    private let window: Duration
    private var pending: [(record: ResultRecord, cache: CachedResponseRecord?)] = []
    private var flushing = false
    private var opened = false
    private var failure: (any Error)?
    /// Senders waiting for room, and callers of `finish` waiting for the last commit.
    private var waitingForRoom: [CheckedContinuation<Void, Never>] = []
    private var waitingForIdle: [CheckedContinuation<Void, Never>] = []
    /// The flush waiting out a group's window, and the timer that ends it (cancelled when something else does).
    private var windowWaiter: CheckedContinuation<Void, Never>?
    private var windowTimer: Task<Void, Never>?
    /// `finish()` is waiting: every result is handed over, so no group waits for more.
    private var finishing = false

    /// How long a small group waits for more results before its commit, and how many need not wait.
    ///
    /// Against a 20 ms endpoint at concurrency 32 (about 1,500 results/s) a 10 ms window gave 47 rows per commit,
    /// and each commit rewrote the same interior and tail pages of every table and index (about 100 WAL frames,
    /// two `pwrite`s each, plus their checkpoint): 40 ms doubles the rows per commit. Nothing waits on a commit but
    /// the progress line and `finish()`. At 40 ms (about 75 rows per commit) the writer thread still spent about
    /// 55 µs per result, most of it in those rewritten pages (`pwrite`, SQLite's page handling, fsync): 100 ms
    /// (about 150 rows) rewrites them half as often per result. A result the run acknowledged (`onStored`) is still
    /// one whose commit was synced; a `kill -9` loses at most the uncommitted window, which `--resume` re-runs.
    static let groupWindow = Duration.milliseconds(100)
    static let groupTarget = 512

    /// `window` is how long a small group waits for more (`groupWindow`; tests make it long to show what ends it).
    init(
        store: any ResultStore, opening: RunOpening? = nil, limit: Int = 1024, window: Duration = groupWindow,
        onStored: @escaping @Sendable (ResultRecord) -> Void
    ) {
        self.store = store
        self.window = window
        self.opening = opening
        self.limit = limit
        self.onStored = onStored
    }

    /// Hands `record` (and `cache`, the response to reuse for identical requests) over for storing; returns at once
    /// unless `limit` results are already waiting. Throws the first failure of an earlier commit.
    func submit(_ record: ResultRecord, cache: CachedResponseRecord?) async throws {
        if let failure { throw failure }
        while pending.count >= limit, failure == nil {
            await withCheckedContinuation { waitingForRoom.append($0) }
        }
        if let failure { throw failure }
        finishing = false
        pending.append((record, cache))
        if pending.count >= Self.groupTarget { endWindow() }
        if !flushing {
            flushing = true
            Task { await self.flush() }
        }
    }

    /// Waits until every result handed over is committed; throws the first failure.
    func finish() async throws {
        // Nothing more is coming: the last group commits now, not at the end of its window (a run, and each batch
        // of a worker, ended 100 ms late).
        finishing = true
        endWindow()
        if flushing { await withCheckedContinuation { waitingForIdle.append($0) } }
        if let failure { throw failure }
    }

    private func flush() async {
        while !pending.isEmpty, failure == nil {
            // Nothing waits for a commit any more, so a few milliseconds buy bigger groups: against a 20 ms
            // endpoint results trickle in and were committed a few at a time, each commit an fsync and a WAL
            // write, which made a sample cost twice the CPU it costs against a 0 ms one.
            if pending.count < Self.groupTarget, !finishing { await waitOutWindow() }
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            resumeAll(&waitingForRoom)
            do {
                if !opened {
                    try await opening?.wait()
                    opened = true
                }
                let inserted = try await store.insertResults(batch.map(\.record), caching: batch.compactMap(\.cache))
                for (item, wasInserted) in zip(batch, inserted) where wasInserted { onStored(item.record) }
            } catch {
                failure = error
            }
        }
        pending.removeAll()
        flushing = false
        resumeAll(&waitingForRoom)
        resumeAll(&waitingForIdle)
    }

    /// Waits until `window` passes, `groupTarget` results are pending, or `finish()` is called.
    private func waitOutWindow() async {
        windowTimer = Task { [self] in
            try? await Task.sleep(for: window)
            // Cancelled: its window already ended, and the one open now (if any) has a timer of its own.
            if !Task.isCancelled { endWindow() }
        }
        await withCheckedContinuation { windowWaiter = $0 }
    }

    /// Ends the window being waited out, if any.
    private func endWindow() {
        guard let waiter = windowWaiter else { return }
        windowWaiter = nil
        windowTimer?.cancel()
        windowTimer = nil
        waiter.resume()
    }

    private func resumeAll(_ waiters: inout [CheckedContinuation<Void, Never>]) {
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
