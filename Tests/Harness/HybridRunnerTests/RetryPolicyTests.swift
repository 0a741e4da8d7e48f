import HybridCore
import HybridRunner
import Testing

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy()

    @Test(arguments: [
        GenerationError.authentication(model: "m", detail: "bad key"),
        .invalidRequest(model: "m", detail: "bad parameter"),
        .contextWindowExceeded(model: "m", detail: "5031 > 4096"),
        .refusal(model: "m", detail: "safety"),
        .rateLimited(model: "m", retryAfter: .seconds(1), retryable: false, detail: "insufficient_quota"),
    ])
    func errorsThatCannotSucceedOnRetryAreNotRetried(error: GenerationError) {
        #expect(policy.delay(after: error, retry: 1) == nil)
    }

    @Test func rateLimitWaitsForRetryAfterCappedAtMaxBackoff() {
        let shortWait = GenerationError.rateLimited(model: "m", retryAfter: .seconds(2), retryable: true, detail: "")
        #expect(policy.delay(after: shortWait, retry: 1) == .seconds(2))
        let longWait = GenerationError.rateLimited(model: "m", retryAfter: .seconds(600), retryable: true, detail: "")
        #expect(policy.delay(after: longWait, retry: 1) == policy.maxBackoff)
    }

    @Test func serverErrorsBackOffExponentiallyAndStopAfterTheLimit() {
        let error = GenerationError.serverError(model: "m", status: 502, detail: "bad gateway")
        #expect(policy.delay(after: error, retry: 1) == .milliseconds(500))
        #expect(policy.delay(after: error, retry: 2) == .seconds(1))
        #expect(policy.delay(after: error, retry: 3) == nil)
    }
}
