/// Progress of a running evaluation, reported after each stored result.
public struct EvalProgress: Sendable {
    /// Results stored so far in this run, including ones stored before a resume.
    public var done: Int
    /// Results the run will have when complete.
    public var total: Int
    /// Stored results whose final outcome was an error, not counting ``unavailable``.
    public var errors: Int
    /// Results stored as `unavailable` without a call (the arm's model had no key or is not installed): skipped,
    /// not failed.
    public var unavailable: Int = 0
    /// Results served from the response cache.
    public var cacheHits: Int
    /// Results stored in this process (for the rate and ETA).
    public var doneThisSession: Int
    /// Seconds since this process started dispatching.
    public var elapsedSeconds: Double

    /// Results per second in this process.
    public var rate: Double { elapsedSeconds > 0 ? Double(doneThisSession) / elapsedSeconds : 0 }

    /// Seconds until done at the current rate, or nil before the first result.
    public var etaSeconds: Double? { rate > 0 ? Double(total - done) / rate : nil }
}

/// How a run ended.
public struct EvalSummary: Sendable {
    /// Id of the run.
    public var runID: String
    /// Results stored, including ones stored before a resume.
    public var stored: Int
    /// Results the plan called for.
    public var planned: Int
    /// Stored results whose final outcome was an error, not counting ``unavailable``.
    public var errors: Int
    /// Results stored as `unavailable` without a call (skipped, not failed).
    public var unavailable: Int = 0
    /// Results served from the response cache.
    public var cacheHits: Int
    /// Arms whose model was unavailable at start, with the reason; their results are stored as errors.
    public var unavailableArms: [(arm: EvalArm, reason: String)]
    /// True when the run stopped early (Ctrl-C); `hybrid eval --resume RUN` finishes it.
    public var interrupted: Bool
    /// True when a resume found the run already completed: nothing was sent or written (errors and cache hits,
    /// counted per session, are then 0).
    public var alreadyCompleted: Bool
    /// Results this session stored with an answer (no error), by model id; a model missing here answered nothing
    /// in this session (a resumed run or a worker may have answers stored by another).
    public var answeredThisSession: [String: Int] = [:]
}
