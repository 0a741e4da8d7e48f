/// How one worker of a shared run (`hybrid eval --worker`) takes its share of the keys.
public struct WorkerOptions: Sendable {
    /// Names the worker in the queue's leases: host and process id by default, so a stuck lease says whose it was.
    public var workerID: String
    /// Keys leased per claim. Small batches spread the tail of a run over every worker; each claim is one query.
    public var batchSize: Int
    /// How long a claimed key stays with this worker. It must exceed the time to run one batch: a key whose lease
    /// expires is claimed again by another worker (and stored once, by whichever finishes first).
    public var lease: Duration
    /// How often a worker with nothing to claim checks again while other workers still hold keys (one of them may
    /// die, and its keys come back when their lease expires).
    public var pollInterval: Duration

    /// Creates worker options.
    public init(workerID: String, batchSize: Int = 16, lease: Duration = .seconds(120), pollInterval: Duration = .milliseconds(500)) {
        self.workerID = workerID
        self.batchSize = max(1, batchSize)
        self.lease = lease
        self.pollInterval = pollInterval
    }
}
