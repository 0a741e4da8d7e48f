import Foundation
public import HybridCore
public import HybridTransport
import Synchronization

/// Uploads route events to a collector in gzip-compressed batches (`RouteEventBatch`), in the background.
///
/// `record` only appends to a bounded in-memory inbox (a full queue drops the event and counts it: `droppedCount`,
/// also sent to the collector in the next batch); the actor takes events from there, appends them to the spool file
/// (`spoolDirectory/spool.jsonl`, read back when a new uploader starts on the same directory, so events survive app
/// restarts; a normal process exit writes what the inbox still holds to the spool first, `ExitDrain`), and sends a
/// batch when `maxBatchEvents` are queued or the oldest waited `maxBatchAge`.
/// Failed uploads (network errors, 5xx, 429) are retried with exponential back-off and jitter, honouring
/// `Retry-After`; a 401 stops uploading (`Status.stopped`); a 400 or a 413 for a single event rejects those events
/// instead of retrying them forever. Each event has a unique id, so a batch sent twice is stored once.
public actor HTTPBatchEventUploader: RouteEventSink {
    struct Inbox {
        var events: [RouteEvent] = []
        /// Events taken by the actor and not yet accepted or rejected.
        var held = 0
        var dropped = 0
        var drainScheduled = false
    }

    /// The configuration in force.
    nonisolated let configuration: Configuration
    let transport: any HTTPTransport
    nonisolated let inbox = Mutex(Inbox())
    var queue: [RouteEvent] = []
    /// The spool file: the actor appends what it takes from the inbox and rewrites it after a batch; a process
    /// exit appends what the inbox still holds. The lock keeps an event either in the inbox or in the spool.
    nonisolated let spool: Mutex<LineAppender?>
    /// The last failure to write the spool, reported in `Status.lastError`.
    nonisolated let spoolError = Mutex<String?>(nil)
    /// When each run of queued events arrived, oldest first (a run is one drain of the inbox), so the events left
    /// after a full batch went keep their own age instead of all counting as due.
    var arrivals: [(count: Int, at: ContinuousClock.Instant)] = []
    /// When the oldest queued event arrived; nil when the queue is empty.
    var oldestQueuedAt: ContinuousClock.Instant? { arrivals.first?.at }
    var retryAt: ContinuousClock.Instant?
    var wakeAt: ContinuousClock.Instant?
    var sendTask: Task<Void, Never>?
    /// A 413 halves this, so later batches fit the collector's limit.
    var batchLimit: Int
    var consecutiveFailures = 0
    var reportedDrops = 0
    var status = Status(
        pending: 0, sent: 0, droppedCount: 0, rejectedCount: 0, failedUploads: 0, lastError: nil, stopped: false)

    /// An uploader; events left in the spool by an earlier instance are queued and sent first.
    public init(configuration: Configuration, transport: any HTTPTransport = URLSessionTransport.shared) {
        self.configuration = configuration
        self.transport = transport
        self.batchLimit = configuration.maxBatchEvents
        if let directory = configuration.spoolDirectory {
            let url = directory.appendingPathComponent("spool.jsonl")
            let leftover = (try? RouteEventLines.read(url).events) ?? []
            queue = Array(leftover.suffix(configuration.maxQueuedEvents))
            spool = Mutex(LineAppender(url: url))
            if !queue.isEmpty { arrivals = [(queue.count, ContinuousClock.now - configuration.maxBatchAge)] }
        } else {
            spool = Mutex(nil)
        }
        let held = queue.count
        inbox.withLock { $0.held = held; $0.drainScheduled = held > 0 }
        if configuration.spoolDirectory != nil { ExitDrain.register(self) }
        if held > 0 { Task { await self.drainInbox() } }
    }

    public nonisolated func record(_ event: RouteEvent) {
        let capacity = configuration.maxQueuedEvents
        let schedule = inbox.withLock { box -> Bool in
            guard box.events.count + box.held < capacity else {
                box.dropped += 1
                return false
            }
            box.events.append(event)
            guard !box.drainScheduled else { return false }
            box.drainScheduled = true
            return true
        }
        if schedule { Task { await self.drainInbox() } }
    }

    /// Writes what the inbox holds to the spool: the process is exiting (`ExitDrain`), and the next uploader on
    /// the directory sends it.
    nonisolated func drainAtExit() {
        spool.withLock { appender in
            guard let appender else { return }
            let events = inbox.withLock { box -> [RouteEvent] in
                defer { box.events = [] }
                return box.events
            }
            append(events, to: appender)
        }
    }

    /// Appends `events` to the spool (called holding its lock); a failure is kept for `Status.lastError`.
    private nonisolated func append(_ events: [RouteEvent], to appender: LineAppender) {
        do {
            for event in events { try appender.append(try RouteEventLines.line(event)) }
        } catch {
            spoolError.withLock { $0 = "spool \(appender.url.path): \(error)" }
        }
    }

    /// Events dropped so far because the queue was full.
    nonisolated var droppedCount: Int { inbox.withLock { $0.dropped } }

    /// What the uploader has done so far.
    public var currentStatus: Status {
        var current = status
        if let error = spoolError.withLock({ $0 }) { current.lastError = current.lastError ?? error }
        current.pending = queue.count + inbox.withLock { $0.events.count }
        current.droppedCount = droppedCount
        return current
    }

    /// Sends every queued event now, ignoring batch age and back-off, in as many batches as needed; stops at the
    /// first failed upload. For tests, and for an app going to the background.
    @discardableResult
    public func flush() async -> Status {
        drainInbox()
        while !queue.isEmpty, !status.stopped {
            while let running = sendTask { await running.value }
            guard !queue.isEmpty, !status.stopped else { break }
            let failuresBefore = status.failedUploads
            let task = Task { await self.sendOneBatch() }
            sendTask = task
            await task.value
            sendTask = nil
            if status.failedUploads > failuresBefore { break }
        }
        return currentStatus
    }

    /// Moves events from the inbox to the queue and the spool, then sends if a batch is due.
    private func drainInbox() {
        // Taken and spooled under the spool's lock, so an exit sees each event in the inbox or in the spool.
        let taken = spool.withLock { appender -> [RouteEvent] in
            let taken = inbox.withLock { box -> [RouteEvent] in
                defer {
                    box.held += box.events.count
                    box.events = []
                    box.drainScheduled = false
                }
                return box.events
            }
            if let appender { append(taken, to: appender) }
            return taken
        }
        guard !taken.isEmpty else { return pump() }
        arrivals.append((taken.count, .now))
        queue += taken
        pump()
    }

    /// Starts a send when a batch is due and none is running; otherwise arranges to look again when one will be.
    private func pump() {
        guard sendTask == nil, !status.stopped, !queue.isEmpty, let oldest = oldestQueuedAt else { return }
        let now = ContinuousClock.now
        if let retryAt, now < retryAt { return wake(at: retryAt) }
        let dueByAge = oldest + configuration.maxBatchAge
        guard retryAt != nil || queue.count >= batchLimit || now >= dueByAge else { return wake(at: dueByAge) }
        sendTask = Task {
            await self.sendOneBatch()
            self.backgroundSendEnded()
        }
    }

    private func backgroundSendEnded() {
        sendTask = nil
        pump()
    }

    private func wake(at instant: ContinuousClock.Instant) {
        if let wakeAt, wakeAt <= instant, wakeAt > .now { return }
        wakeAt = instant
        Task {
            try? await Task.sleep(until: instant, clock: .continuous)
            self.woke()
        }
    }

    private func woke() {
        if let wakeAt, wakeAt <= .now { self.wakeAt = nil }
        pump()
    }
}

/// With a spool, the exit drain writes what the inbox holds to it (see the type's notes).
extension HTTPBatchEventUploader: ExitDrainable {}
