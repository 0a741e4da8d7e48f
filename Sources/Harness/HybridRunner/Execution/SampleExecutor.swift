public import HybridCore

/// What one (case, arm, repeat) produced after retries: the final response or error, and the cost of retrying.
public struct SampleOutcome: Sendable {
    /// The final attempt's response; nil when every attempt failed.
    public var response: GenerationResponse?
    /// The final attempt's error; nil on success.
    public var error: GenerationError?
    /// Attempts after the first.
    public var retries: Int
    /// Time spent waiting between attempts plus time spent in failed attempts; never part of latency figures.
    public var retryTime: Duration
    /// Error kinds of the failed attempts, in order.
    public var failedAttemptKinds: [GenerationError.Kind]
    /// How long the last attempt took when it failed: what a caller waited to learn of the failure.
    public var failedAttemptDuration: Duration?

    /// Creates an outcome; exactly one of `response` and `error` is normally set.
    public init(
        response: GenerationResponse?, error: GenerationError?, retries: Int, retryTime: Duration,
        failedAttemptKinds: [GenerationError.Kind], failedAttemptDuration: Duration? = nil
    ) {
        self.response = response
        self.error = error
        self.retries = retries
        self.retryTime = retryTime
        self.failedAttemptKinds = failedAttemptKinds
        self.failedAttemptDuration = failedAttemptDuration
    }
}

/// Runs one request against one model with the retry policy, streaming when the model can so that time to first
/// token is measured.
///
/// Latency comes from the provider's own timing of the final attempt (measured from when the request was handed to
/// the transport), so queueing for a concurrency slot and backing off never inflate it.
public struct SampleExecutor: Sendable {
    /// How many retries each error kind gets and how long to back off.
    public var policy: RetryPolicy
    /// Called before each back-off wait; the runner uses it to pause dispatch when a provider says "slow down".
    public var onBackoff: (@Sendable (GenerationError, Duration) async -> Void)?

    /// Creates an executor; `onBackoff` runs before every back-off wait.
    public init(policy: RetryPolicy, onBackoff: (@Sendable (GenerationError, Duration) async -> Void)? = nil) {
        self.policy = policy
        self.onBackoff = onBackoff
    }

    /// Generates with retries. Never throws: the final failure is part of the outcome, so it is stored like a success.
    public func execute(_ request: GenerationRequest, on model: any LanguageModel, jitter: @Sendable () -> Double = { 0 }) async -> SampleOutcome {
        let clock = ContinuousClock()
        var retries = 0
        var retryTime = Duration.zero
        var kinds: [GenerationError.Kind] = []
        while true {
            let started = clock.now
            do {
                let response = try await attempt(request, on: model)
                return SampleOutcome(response: response, error: nil, retries: retries, retryTime: retryTime, failedAttemptKinds: kinds)
            } catch {
                if Task.isCancelled || error.kind == .cancelled {
                    return SampleOutcome(response: nil, error: .cancelled(model: model.id), retries: retries, retryTime: retryTime, failedAttemptKinds: kinds)
                }
                guard let wait = policy.delay(after: error, retry: retries + 1, jitter: jitter()),
                    Self.fits(wait, before: request.deadline, clock: clock)
                else {
                    return SampleOutcome(
                        response: nil, error: error, retries: retries, retryTime: retryTime, failedAttemptKinds: kinds,
                        failedAttemptDuration: clock.now - started)
                }
                kinds.append(error.kind)
                retries += 1
                await onBackoff?(error, wait)
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    return SampleOutcome(response: nil, error: .cancelled(model: model.id), retries: retries, retryTime: retryTime + (clock.now - started), failedAttemptKinds: kinds)
                }
                retryTime += clock.now - started
            }
        }
    }

    /// A retry is worth starting only if, after waiting, some of the deadline is left for the attempt itself;
    /// so attempts, retries and back-off together never outlast the deadline.
    private static func fits(_ wait: Duration, before deadline: ContinuousClock.Instant?, clock: ContinuousClock) -> Bool {
        guard let deadline else { return true }
        return clock.now + wait < deadline
    }

    private func attempt(_ request: GenerationRequest, on model: any LanguageModel) async throws(GenerationError) -> GenerationResponse {
        guard model.capabilities.streaming else { return try await model.generate(request) }
        return try await model.generateStreamed(request)
    }
}
