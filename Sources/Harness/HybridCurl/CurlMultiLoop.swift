import CCurl
import Foundation
import HybridTransport
import Synchronization

/// The one thread that drives every transfer of a `CurlTransport` through a curl multi handle, and a
/// `TaskExecutor` that runs Swift jobs on that same thread between two turns of curl.
///
/// Tasks that prefer this executor (`withTaskExecutorPreference`) resume on the thread that saw their response, and
/// the transfers they start are added on the next turn: no hop through the global pool (a futex wake) per
/// completion, and no wake-up per request. Only work that arrives while the loop sleeps in `poll` wakes it.
///
/// curl is driven by `curl_multi_socket_action` (``CurlSocketWatch``): it only touches transfers whose socket is
/// ready or whose timer ran out, instead of every transfer in flight on every turn.
///
/// `@unchecked Sendable` because the multi handle and the `active` table are confined to the loop thread; other
/// threads only touch `inbox` (a `Mutex`) and the watch's wake pipe.
final class CurlMultiLoop: @unchecked Sendable {
    private struct Inbox {
        var adds: [CurlTransfer] = []
        var cancels: [CurlTransfer] = []
        var jobs: [UnownedJob] = []
        var shuttingDown = false
        var stopped = false
        /// The loop is (about to be) blocked in `poll`: only then does new work need a wakeup.
        var sleeping = false

        var hasWork: Bool { !adds.isEmpty || !cancels.isEmpty || !jobs.isEmpty }
    }

    private let multi: UnsafeMutableRawPointer?
    /// Easy handles of finished transfers, reused by the next ones.
    let easyHandles: CurlEasyPool
    private let watch: CurlSocketWatch?
    private let inbox = Mutex(Inbox())
    /// Transfers added to the multi handle, keyed by identity. Loop thread only.
    private var active: [ObjectIdentifier: CurlTransfer] = [:]
    /// The job array not in the inbox right now. Loop thread only.
    private var spareJobs: [UnownedJob] = []
    /// No first-byte deadline of an active transfer is earlier than this (nil: none is pending), so turns before it
    /// skip the scan over every transfer. It may be stale-early (that transfer's first byte came): the scan then
    /// finds the true one. Loop thread only.
    private var firstByteScanAt: ContinuousClock.Instant?
    /// Transfers that received body bytes during the current turn of curl (``CurlTransfer/flushBody()``). Loop
    /// thread only.
    private var bodiesToFlush: [CurlTransfer] = []

    /// Starts the loop thread. `maxConnections` bounds the idle connections kept for reuse.
    init(maxConnections: Int, name: String) {
        let watch = CurlSocketWatch()
        self.watch = watch
        easyHandles = CurlEasyPool(capacity: maxConnections)
        multi = CurlGlobal.isInitialized && watch != nil ? curl_multi_init() : nil
        if let multi {
            _ = hy_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxConnections)
            let thread = Thread { [self] in
                hy_name_current_thread(name)
                run()
            }
            thread.name = name
            thread.start()
        } else {
            inbox.withLock { $0.stopped = true }
        }
    }

    /// Queues `transfer` for the loop thread. Fails it at once if the loop is gone.
    func submit(_ transfer: CurlTransfer) {
        let accepted: Bool? = inbox.withLock { inbox in
            guard !inbox.stopped, !inbox.shuttingDown else { return nil }
            inbox.adds.append(transfer)
            return inbox.sleeping
        }
        guard let wake = accepted else {
            transfer.fail(.failed(url: transfer.url, detail: "the HTTP transport is shut down"))
            return
        }
        if wake { wakeUp() }
    }

    private func wakeUp() {
        watch?.wake()
    }

    /// Asks the loop to remove `transfer` and fail it with `.cancelled`. Safe from any thread, any number of times.
    func cancel(_ transfer: CurlTransfer) {
        guard !transfer.cancelRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let wake = inbox.withLock { inbox in
            guard !inbox.stopped else { return false }
            inbox.cancels.append(transfer)
            return inbox.sleeping
        }
        if wake { wakeUp() }
    }

    /// Lets running transfers finish, then ends the thread. New submissions fail.
    func shutdown() {
        inbox.withLock { $0.shuttingDown = true }
        wakeUp()
    }

    private func run() {
        guard let multi, let watch else { return }
        watch.install(on: multi)
        var ready: [CurlSocketWatch.Readiness] = []
        while true {
            runJobs()
            let (adds, cancels, shuttingDown) = inbox.withLock { inbox in
                defer {
                    inbox.adds.removeAll(keepingCapacity: true)
                    inbox.cancels.removeAll(keepingCapacity: true)
                }
                return (inbox.adds, inbox.cancels, inbox.shuttingDown)
            }
            for transfer in adds { add(transfer, to: multi) }
            for transfer in cancels {
                remove(transfer, from: multi, failing: .cancelled(url: transfer.url))
            }
            if shuttingDown && active.isEmpty && stop() { break }

            if watch.takeExpiredTimer(now: .now) { act(on: hy_socket_timeout(), mask: 0, multi) }
            flushBodies()
            collectFinished(multi)
            let wait = waitMilliseconds(firstByteDeadline: enforceFirstByteLimits(multi), timer: watch.timerDeadline)
            // Completions above queued the jobs of the tasks they resumed: run those before sleeping.
            let sleep = inbox.withLock { inbox in
                inbox.sleeping = !inbox.hasWork
                return inbox.sleeping
            }
            watch.wait(milliseconds: sleep ? wait : 0, into: &ready)
            // Awake again: the jobs the completions below enqueue must not write to the wake pipe.
            if sleep { inbox.withLock { $0.sleeping = false } }
            for readiness in ready { act(on: readiness.socket, mask: readiness.mask, multi) }
            flushBodies()
            collectFinished(multi)
        }
        curl_multi_cleanup(multi)
    }

    /// `transfer` got body bytes in this turn: hand them to its consumer when the turn ends (loop thread).
    func flushAfterTurn(_ transfer: CurlTransfer) {
        bodiesToFlush.append(transfer)
    }

    private func flushBodies() {
        guard !bodiesToFlush.isEmpty else { return }
        for transfer in bodiesToFlush { transfer.flushBody() }
        bodiesToFlush.removeAll(keepingCapacity: true)
    }

    private func act(on socket: curl_socket_t, mask: Int32, _ multi: UnsafeMutableRawPointer) {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, socket, mask, &running)
    }

    /// How long the loop may sleep: until curl's timer, the earliest first-byte deadline, or a second at most.
    private func waitMilliseconds(firstByteDeadline: ContinuousClock.Instant?, timer: ContinuousClock.Instant?) -> Int32 {
        var wait = 1000
        let now = ContinuousClock.now
        if let firstByteDeadline { wait = min(wait, max(1, (firstByteDeadline - now).roundedUpMilliseconds)) }
        if let timer { wait = min(wait, max(0, (timer - now).roundedUpMilliseconds)) }
        return Int32(wait)
    }

    /// Runs the jobs queued for this executor, in order, and the jobs those enqueue, until none is left (or a
    /// bounded number of rounds, so a task that keeps yielding cannot starve the transfers). A continuation resumed
    /// right away (a body chunk already buffered) is a job too: going back to curl between each would cost a turn
    /// (a `poll`) per hop.
    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        for _ in 0..<Self.jobRoundsPerTurn {
            // Swapped with a spare array, not copied: neither side allocates once both have grown.
            var jobs: [UnownedJob] = []
            swap(&jobs, &spareJobs)
            inbox.withLock { inbox in
                inbox.sleeping = false
                swap(&inbox.jobs, &jobs)
            }
            defer {
                jobs.removeAll(keepingCapacity: true)
                spareJobs = jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }

    private static let jobRoundsPerTurn = 64

    private func add(_ transfer: CurlTransfer, to multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy, !transfer.cancelRequested.load(ordering: .acquiring) else {
            transfer.fail(.cancelled(url: transfer.url))
            transfer.cleanup()
            return
        }
        if curl_multi_add_handle(multi, easy) == CURLM_OK {
            active[ObjectIdentifier(transfer)] = transfer
        } else {
            transfer.fail(.failed(url: transfer.url, detail: "libcurl refused the transfer"))
            transfer.cleanup()
        }
    }

    /// Ends the loop unless work arrived meanwhile (false). Transfers submitted at the last moment fail; jobs
    /// enqueued from now on run on the global executor.
    private func stop() -> Bool {
        let stragglers: [CurlTransfer]? = inbox.withLock { inbox in
            guard inbox.jobs.isEmpty, inbox.cancels.isEmpty else { return nil }
            inbox.stopped = true
            defer { inbox.adds.removeAll() }
            return inbox.adds
        }
        guard let stragglers else { return false }
        for transfer in stragglers {
            transfer.fail(.failed(url: transfer.url, detail: "the HTTP transport is shut down"))
            transfer.cleanup()
        }
        return true
    }

    private func collectFinished(_ multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            // The message lives inside the easy handle: read everything before removing it.
            let code = hy_msg_result(message)
            var privatePointer: UnsafeMutableRawPointer?
            _ = hy_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &privatePointer)
            _ = curl_multi_remove_handle(multi, easy)
            guard let privatePointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(privatePointer).takeUnretainedValue()
            guard let owned = active.removeValue(forKey: ObjectIdentifier(transfer)) else { continue }
            owned.complete(code)
            owned.cleanup()
        }
    }

    /// A transfer's request went out with a first-byte limit that ends at `deadline` (loop thread: curl's
    /// pre-request callback).
    func firstByteClockStarted(deadline: ContinuousClock.Instant) {
        if firstByteScanAt.map({ deadline < $0 }) ?? true { firstByteScanAt = deadline }
    }

    /// curl has no first-byte limit, so the loop enforces it. Returns the earliest pending deadline.
    private func enforceFirstByteLimits(_ multi: UnsafeMutableRawPointer) -> ContinuousClock.Instant? {
        let now = ContinuousClock.now
        // Nothing can have run out before the earliest deadline known: skip the walk over every transfer.
        guard let scanAt = firstByteScanAt, scanAt <= now else { return firstByteScanAt }
        var earliest: ContinuousClock.Instant?
        var expired: [CurlTransfer] = []
        for transfer in active.values where !transfer.firstByteArrived {
            guard let limit = transfer.timeouts.firstByte, let sentAt = transfer.requestSentAt else { continue }
            let deadline = sentAt + limit
            if deadline <= now {
                expired.append(transfer)
            } else if earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
        }
        for transfer in expired {
            let limit = transfer.timeouts.firstByte ?? .zero
            remove(transfer, from: multi, failing: .timedOut(url: transfer.url, phase: .firstByte, after: limit))
        }
        firstByteScanAt = earliest
        return earliest
    }

    /// Takes an active transfer off the multi handle (curl closes its connection if mid-response) and fails it.
    private func remove(_ transfer: CurlTransfer, from multi: UnsafeMutableRawPointer, failing error: TransportError) {
        guard active.removeValue(forKey: ObjectIdentifier(transfer)) != nil else { return }
        if let easy = transfer.easy { _ = curl_multi_remove_handle(multi, easy) }
        transfer.fail(error)
        transfer.cleanup()
    }
}

extension CurlMultiLoop: TaskExecutor {
    /// Queues `job` for the loop thread; wakes the loop only if it sleeps in `poll`. Once the loop has
    /// stopped, jobs go to the global concurrent executor, so a task that still prefers this one keeps running.
    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let queued: Bool? = inbox.withLock { inbox in
            guard !inbox.stopped else { return nil }
            inbox.jobs.append(unownedJob)
            return inbox.sleeping
        }
        guard let wake = queued else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unownedJob))
            return
        }
        if wake { wakeUp() }
    }
}
