public import HybridCore

/// How many times to retry each kind of generation error, and how long to wait between tries.
///
/// Defaults follow what each error means: authentication, invalid requests, refusals, context overflows and
/// non-retryable quotas never succeed on a retry; rate limits, timeouts, server errors and unavailable models may.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries allowed per error kind after the first attempt; kinds not listed get none.
    public var maxRetries: [GenerationError.Kind: Int]
    /// Wait before the first retry when the provider gave no `Retry-After`; doubles each retry.
    public var baseBackoff: Duration
    /// No single wait is longer than this, whatever `Retry-After` says.
    public var maxBackoff: Duration

    /// Creates a policy; by default rate limits get 4 retries and waits grow from 500 ms up to 30 s.
    public init(
        maxRetries: [GenerationError.Kind: Int] = [.rateLimited: 4, .timeout: 1, .serverError: 2, .unavailable: 1, .decodingFailure: 0],
        baseBackoff: Duration = .milliseconds(500),
        maxBackoff: Duration = .seconds(30)
    ) {
        self.maxRetries = maxRetries
        self.baseBackoff = baseBackoff
        self.maxBackoff = maxBackoff
    }

    /// A policy that never retries.
    public static let none = RetryPolicy(maxRetries: [:])

    /// The wait before retry number `retry` (1-based) after `error`, or nil when the error must not be retried.
    ///
    /// `jitter` in 0..<1 spreads retries of concurrent requests apart; the runner draws it from its seeded
    /// generator so a run's schedule is reproducible.
    public func delay(after error: GenerationError, retry: Int, jitter: Double = 0) -> Duration? {
        if error.kind == .rateLimited, error.retryable == false { return nil }
        guard retry >= 1, retry <= maxRetries[error.kind, default: 0] else { return nil }
        if error.kind == .rateLimited, let retryAfter = error.retryAfter {
            return min(retryAfter, maxBackoff)
        }
        let exponential = baseBackoff * (1 << min(retry - 1, 16))
        let jittered = exponential + exponential * (jitter * 0.25)
        return min(jittered, maxBackoff)
    }
}
