/// How one worker of a shared run (`hybrid eval --worker`) takes its share of the keys.
public struct WorkerOptions: Sendable {
    /// Names the worker in the queue's leases: host and process id by default, so a stuck lease says whose it was.
    public var workerID: String
    /// Keys leased per claim. Small batches spread the tail of a run over every worker; each claim is one query.
    public var batchSize: Int
    /// How long a claimed key stays with this worker without a renewal. The worker renews its leases every
    /// ``renewalInterval`` while it runs a batch, so a batch may take longer than one lease; a killed worker's keys
    /// return this long after its last renewal.
    public var lease: Duration
    /// How often a worker with nothing to claim checks again while other workers still hold keys (one of them may
    /// die, and its keys come back when their lease expires).
    public var pollInterval: Duration

    /// How often a worker renews its leases while it runs a batch: a third of the lease, so a renewal can be late
    /// by more than a whole interval before any key runs out.
    public var renewalInterval: Duration { lease / 3 }

    /// Creates worker options.
    public init(workerID: String, batchSize: Int = 16, lease: Duration = .seconds(120), pollInterval: Duration = .milliseconds(500)) {
        self.workerID = workerID
        self.batchSize = max(1, batchSize)
        self.lease = lease
        self.pollInterval = pollInterval
    }
}
