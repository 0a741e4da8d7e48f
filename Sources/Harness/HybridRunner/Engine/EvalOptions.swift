public import Tracing
/// How a run dispatches: concurrency limits, retries, the response cache and the scorers.
public struct EvalOptions: Sendable {
    /// Requests in flight across all arms.
    public var concurrency: Int
    /// Requests in flight per model, unless `perModelConcurrencyOverrides` names the model. A small local server
    /// serves a few requests at once; a cloud API takes many.
    public var perModelConcurrency: Int
    /// Per-model limits that replace `perModelConcurrency`, by model id.
    public var perModelConcurrencyOverrides: [String: Int]
    /// Retries and back-off per error kind.
    public var retryPolicy: RetryPolicy
    /// Reuse stored outputs for identical requests (marked as cache hits, excluded from latency figures).
    public var useCache: Bool
    /// Quality scorers applied to every output; defaults to `StandardScorers.all`.
    public var scorers: [any QualityScorer]
    /// An LLM judge scoring every successful output as the `judge` score; nil for none.
    public var judge: LLMJudge?
    /// Send prompts whose estimated size exceeds the model's declared context window instead of storing them as
    /// `context_window_exceeded` without a call.
    public var sendOversizedPrompts: Bool
    /// The executor the samples' tasks prefer; nil for the global pool. The CLI passes its `CurlTransport`'s
    /// loop thread, so a response resumes its sample where it arrived instead of hopping threads twice per request.
    public var taskExecutor: (any TaskExecutor)?
    /// Where the run's spans go (``EvalRunner`` writes one per run and one per stored result); nil: the process's
    /// (`InstrumentationSystem.tracer`, the no-op one unless `hybrid eval --otlp-endpoint` bootstrapped an exporter).
    public var tracer: (any Tracer)?

    /// Creates options; concurrency values below 1 are raised to 1.
    public init(
        concurrency: Int = 4,
        perModelConcurrency: Int = 4,
        perModelConcurrencyOverrides: [String: Int] = [:],
        retryPolicy: RetryPolicy = RetryPolicy(),
        useCache: Bool = false,
        scorers: [any QualityScorer] = StandardScorers.all,
        judge: LLMJudge? = nil,
        sendOversizedPrompts: Bool = false,
        taskExecutor: (any TaskExecutor)? = nil
    ) {
        self.concurrency = max(1, concurrency)
        self.perModelConcurrency = max(1, perModelConcurrency)
        self.perModelConcurrencyOverrides = perModelConcurrencyOverrides
        self.retryPolicy = retryPolicy
        self.useCache = useCache
        self.scorers = scorers
        self.judge = judge
        self.sendOversizedPrompts = sendOversizedPrompts
        self.taskExecutor = taskExecutor
    }
}
