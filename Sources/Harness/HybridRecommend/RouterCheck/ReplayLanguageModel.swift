import HybridCore
import HybridRouter
import HybridStore
import Synchronization
import HybridVirtualTime

/// One stored result as a replay model gives it back: text, usage, error, latency and the price of the call.
struct ReplayOutcome: Sendable {
    var text: String?
    var usage: TokenUsage?
    var error: ResultError?
    var latencyMs: Double
    /// When the stored stream's first text came; nil when the result was not streamed (or failed).
    var ttftMs: Double?
    var costUSD: Double?

    init(_ record: ResultRecord) {
        text = record.rawOutput
        usage = record.usage
        error = record.error
        latencyMs = record.timings.totalMs
        ttftMs = record.error == nil ? record.timings.ttftMs : nil
        costUSD = record.costUSD
    }

    init(text: String?, usage: TokenUsage?, error: ResultError?, latencyMs: Double, ttftMs: Double? = nil, costUSD: Double?) {
        self.text = text
        self.usage = usage
        self.error = error
        self.latencyMs = latencyMs
        self.ttftMs = ttftMs
        self.costUSD = costUSD
    }
}

/// What the replayed provider charged: every call pays the stored cost of its (case, arm), even one the router
/// cut at a timeout (the simulator's conservative rule: a cut request still pays).
final class ReplayBill: Sendable {
    private let total = Mutex(0.0)

    func charge(_ usd: Double?) {
        total.withLock { $0 += usd ?? 0 }
    }

    var usd: Double { total.withLock { $0 } }
}

/// A `LanguageModel` that answers one (case, arm) of a stored run as it was stored, on a virtual clock: it sleeps
/// until its stored end (start + stored latency) and returns the stored text or error. It never moves the clock
/// itself: the replay's executor does, waking sleepers in time order, so when the router's attempt limit, the
/// deadline or a hedge race's other call comes first, the router cancels it and it throws `.cancelled`, as a slow
/// provider torn down would.
struct ReplayLanguageModel: LanguageModel {
    let id: String
    let tier: ModelTier
    let capabilities: ModelCapabilities
    let outcome: ReplayOutcome
    let clock: VirtualClock
    let bill: ReplayBill
    /// The replay's executor, where a stream's task runs too.
    let taskExecutor: (any TaskExecutor)?

    var displayName: String { "replay of \(id)" }

    func availability() async -> ModelAvailability { .available }

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        bill.charge(outcome.costUSD)
        let start = clock.now
        try await sleep(until: start + Self.duration(outcome.latencyMs))
        return try answer(since: start)
    }

    /// A stored stream: its whole text at its time to first token, then the completed response at its end (a
    /// result stored without one streams as `generate` answers, all at the end).
    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        guard let ttftMs = outcome.ttftMs, let text = outcome.text, !text.isEmpty else {
            return streamByGenerating(request, taskExecutor: taskExecutor)
        }
        return AsyncThrowingStream { continuation in
            let task = Task.starting(on: taskExecutor) {
                do throws(GenerationError) {
                    bill.charge(outcome.costUSD)
                    let start = clock.now
                    try await sleep(until: start + Self.duration(ttftMs))
                    continuation.yield(.delta(text))
                    try await sleep(until: start + Self.duration(outcome.latencyMs), since: start)
                    continuation.yield(.completed(try answer(since: start)))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func sleep(until instant: ContinuousClock.Instant, since: ContinuousClock.Instant? = nil) async throws(GenerationError) {
        do {
            try await clock.sleep(until: instant, kind: .answer, since: since)
        } catch {
            throw .cancelled(model: id)
        }
    }

    /// The stored error, or the stored answer of a call that began at `start`.
    private func answer(since start: ContinuousClock.Instant) throws(GenerationError) -> GenerationResponse {
        if let error = outcome.error { throw Self.generationError(error, model: id) }
        let text = outcome.text ?? ""
        return GenerationResponse(
            text: text, servedBy: identity, usage: outcome.usage ?? .estimated(prompt: "", completion: text),
            timing: GenerationTiming(timeToFirstToken: outcome.ttftMs.map { Self.duration($0) }, total: clock.now - start),
            finishReason: .stop)
    }

    static func duration(_ ms: Double) -> Duration { .nanoseconds(Int64((ms * 1_000_000).rounded())) }

    /// The stored error as the kind the router acts on; kinds only the runner knows count as server errors.
    static func generationError(_ error: ResultError, model: String) -> GenerationError {
        let detail = error.message
        switch GenerationError.Kind(rawValue: error.kind) {
        case .contextWindowExceeded: return .contextWindowExceeded(model: model, detail: detail)
        case .rateLimited: return .rateLimited(model: model, retryAfter: nil, retryable: true, detail: detail)
        case .unavailable: return .unavailable(model: model, reason: .unreachable(detail))
        case .timeout: return .timeout(model: model, after: nil, phase: .total)
        case .refusal: return .refusal(model: model, detail: detail)
        case .invalidRequest: return .invalidRequest(model: model, detail: detail)
        case .authentication: return .authentication(model: model, detail: detail)
        case .decodingFailure: return .decodingFailure(model: model, detail: detail)
        case .cancelled: return .cancelled(model: model)
        case .serverError, nil: return .serverError(model: model, status: nil, detail: detail)
        }
    }
}
