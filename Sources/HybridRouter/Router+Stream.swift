public import HybridConfig
import HybridCore
import Synchronization

extension Router {
    /// Streams `feature`'s answer for `input`: the same walk as `generate`, delivering text as the routing
    /// policy's `streaming` mode says.
    ///
    /// Progressive (the default): text goes out as it arrives, and fallback is possible only before the first
    /// `.delta` was yielded: once a model has produced text, a failure (or a per-attempt timeout) ends the stream
    /// with `RouterError.streamInterrupted` (the app has shown text that another model would not continue), and
    /// output checks, which run at completion, are reported in the completed response's `failedChecks` instead
    /// of falling back. Buffered ("deliver after checks"): a model's text is held until its answer passed the
    /// checks, so every fallback rule of `generate` applies, at the cost of time to first text.
    /// The deadline covers the whole stream; at the deadline the model's stream is cancelled and the
    /// stream ends with `.deadlineExceeded`, even if some text was already delivered.
    /// Errors thrown by the returned stream are `RouterError`. Stopping iteration cancels the model call.
    public func stream(
        feature: String,
        input: [String: String],
        privacy: PrivacyClass? = nil,
        deadline: Duration? = nil,
        truncateInputTo: Int? = nil
    ) -> AsyncThrowingStream<RoutedEvent, any Error> {
        stream(RequestTrace(feature: feature, input: input, privacy: privacy, deadline: deadline, truncateInputTo: truncateInputTo))
    }

    /// The stream of one request as traced (typed or not).
    func stream(_ request: RequestTrace) -> AsyncThrowingStream<RoutedEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<RoutedEvent, any Error>.makeStream()
        let task = Task {
            let result = await traced(request) { plan async throws(RouterError) in
                try await runStream(plan, into: continuation)
            }
            switch result {
            case .success(let response):
                continuation.yield(.completed(response))
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func runStream(
        _ plan: Plan, into continuation: AsyncThrowingStream<RoutedEvent, any Error>.Continuation
    ) async throws(RouterError) -> RoutedResponse {
        var walk = Walk()
        func emitLast() {
            if let last = walk.attempts.last { continuation.yield(.attempt(last)) }
        }
        for id in plan.priority {
            let candidate: Candidate
            switch await prepare(id, plan: plan, walk: &walk) {
            case .skip:
                emitLast()
                continue
            case .cached(let response):
                continuation.yield(.delta(response.text))
                emitLast()
                return plan.routed(response, attempts: walk.attempts, fromCache: true)
            case .call(let c):
                candidate = c
            }
            // Checked only before a call: skips cost nothing, and a cached answer is still worth returning.
            if let deadline = plan.deadline, clock.now() >= deadline {
                throw .deadlineExceeded(feature: plan.feature, deadline: plan.deadlineDuration ?? .zero, attempts: walk.attempts)
            }
            let started = clock.now()
            let limit = plan.attemptLimit(start: started)
            let request = plan.request(until: limit)
            let sink = DeltaSink(continuation, buffered: plan.routing.streaming == .buffered)
            let outcome = await DeadlineRace.run(until: limit.instant, clock: clock) { () async throws(GenerationError) in
                try await Self.consume(candidate.model, request, into: sink)
            }
            sink.close()
            switch outcome {
            case .finished(.success(let response)):
                let judgement = judge(response, of: candidate, from: started, plan: plan, walk: &walk)
                emitLast()
                switch judgement {
                case .accepted(let failures):
                    sink.flush()
                    await served(response, by: candidate, plan: plan)
                    return plan.routed(response, attempts: walk.attempts, fromCache: false, failedChecks: failures)
                case .rejected(let answer) where sink.deliveredText:
                    // Progressive: the text is already on screen; report the failures, do not switch models.
                    await served(response, by: candidate, plan: plan, cacheIt: false)
                    return plan.routed(response, attempts: walk.attempts, fromCache: false, failedChecks: answer.failures)
                case .rejected:
                    await served(response, by: candidate, plan: plan, cacheIt: false)
                }
            case .finished(.failure(let error)):
                walk.record(candidate, .failed(error), from: started, plan: plan, now: clock.now())
                emitLast()
                if sink.deliveredText {
                    throw .streamInterrupted(feature: plan.feature, error: error, attempts: walk.attempts)
                }
                try handleFailure(error, of: candidate, plan: plan, walk: &walk)
            case .deadline where limit.isAttemptTimeout:
                let limitDuration = limit.timeout ?? .zero
                walk.record(candidate, .timedOut(after: limitDuration), from: started, plan: plan, now: clock.now())
                emitLast()
                if sink.deliveredText {
                    let error = GenerationError.timeout(model: candidate.id, after: limitDuration, phase: .deadline)
                    throw .streamInterrupted(feature: plan.feature, error: error, attempts: walk.attempts)
                }
            case .deadline:
                walk.record(candidate, .cancelledAtDeadline, from: started, plan: plan, now: clock.now())
                emitLast()
                throw .deadlineExceeded(feature: plan.feature, deadline: plan.deadlineDuration ?? .zero, attempts: walk.attempts)
            case .callerCancelled:
                walk.record(candidate, .failed(.cancelled(model: candidate.id)), from: started, plan: plan, now: clock.now())
                throw .cancelled(feature: plan.feature, attempts: walk.attempts)
            }
        }
        let routed = try finishExhausted(plan: plan, walk: walk)
        continuation.yield(.delta(routed.response.text))
        return routed
    }

    /// Reads one model stream to its `.completed` event, passing deltas to `sink`.
    private static func consume(
        _ model: any LanguageModel, _ request: GenerationRequest, into sink: DeltaSink
    ) async throws(GenerationError) -> GenerationResponse {
        var final: GenerationResponse?
        do {
            for try await event in model.stream(request) {
                switch event {
                case .delta(let text): sink.yield(text)
                case .completed(let response): final = response
                case .toolCallDelta: break  // the completed response carries the assembled calls
                }
            }
        } catch let error as GenerationError {
            throw error
        } catch {
            throw Task.isCancelled ? .cancelled(model: model.id) : .serverError(model: model.id, status: nil, detail: "\(error)")
        }
        guard let final else {
            if Task.isCancelled { throw .cancelled(model: model.id) }
            throw .decodingFailure(model: model.id, detail: "the stream ended without a completed event")
        }
        return final
    }
}

/// Forwards one model's deltas to the routed stream until closed, remembering whether any text went out (after
/// which no fallback is allowed); in buffered mode it holds them until `flush`, after the checks passed. Locked
/// because the model call runs in its own task.
final class DeltaSink: Sendable {
    private struct State {
        var open = true
        var delivered = false
        var held: [String] = []
    }

    private let continuation: AsyncThrowingStream<RoutedEvent, any Error>.Continuation
    private let buffered: Bool
    private let state = Mutex(State())

    init(_ continuation: AsyncThrowingStream<RoutedEvent, any Error>.Continuation, buffered: Bool = false) {
        self.continuation = continuation
        self.buffered = buffered
    }

    func yield(_ text: String) {
        state.withLock { state in
            guard state.open else { return }
            if buffered {
                state.held.append(text)
                return
            }
            state.delivered = true
            continuation.yield(.delta(text))
        }
    }

    /// Delivers held deltas, in order (buffered mode, once the answer is accepted).
    func flush() {
        let held = state.withLock { state -> [String] in
            defer { state.held = [] }
            state.delivered = state.delivered || !state.held.isEmpty
            return state.held
        }
        for text in held { continuation.yield(.delta(text)) }
    }

    /// Stops forwarding: a cancelled call's late deltas must not follow the router's verdict.
    func close() {
        state.withLock { $0.open = false }
    }

    var deliveredText: Bool { state.withLock { $0.delivered } }
}
