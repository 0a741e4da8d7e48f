public import HybridConfig
import HybridCore
import Synchronization

extension Router {
    /// Streams `feature`'s answer for `input`: the same walk as `generate`, delivering text as the routing
    /// policy's `streaming` mode says.
    ///
    /// Progressive (the default): text goes out as it arrives. Once a model has produced text, a failure (or a
    /// per-attempt timeout) is recovered as `routing.streamRecovery` says: the next model continues the text shown
    /// (`continue`, the default), or answers again after a `.reset` (`restart`), or the stream ends with
    /// `RouterError.streamInterrupted` (`off`). Output checks, which run at completion, are reported in the
    /// completed response's `failedChecks` instead of falling back once text was shown.
    /// Buffered ("deliver after checks"): a model's text is held until its answer passed the checks, so every
    /// fallback rule of `generate` applies, at the cost of time to first text.
    /// The deadline covers the whole stream; at the deadline the model's stream is cancelled and the
    /// stream ends with `.deadlineExceeded`, even if some text was already delivered.
    /// Iteration throws `RouterError` only (typed: `catch` gives a `RouterError`). Stopping iteration cancels the
    /// model call. `labels` are what input rules may test (`label.NAME`), as for `generate`.
    public func stream(
        feature: String,
        input: [String: String],
        privacy: PrivacyClass? = nil,
        deadline: Duration? = nil,
        truncateInputTo: Int? = nil,
        labels: [String: String] = [:]
    ) -> RouterStream<RoutedStreamEvent> {
        let request = RequestTrace(
            feature: feature, input: input, privacy: privacy, deadline: deadline, truncateInputTo: truncateInputTo, labels: labels)
        return RouterStream(stream(request), feature: feature)
    }

    /// The stream of one request as traced (typed or not).
    func stream(_ request: RequestTrace) -> AsyncThrowingStream<RoutedStreamEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<RoutedStreamEvent, any Error>.makeStream()
        let task = Task.starting(on: clock.taskExecutor) { [self] in
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
        _ plan: Plan, into continuation: AsyncThrowingStream<RoutedStreamEvent, any Error>.Continuation
    ) async throws(RouterError) -> RoutedResponse {
        try await walk(plan, delivery: StreamDelivery(continuation, buffered: plan.rules.streaming == .buffered))
    }

    /// Reads one model stream to its `.completed` event, passing deltas to `sink`.
    static func consume(
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

/// `stream`: each attempt goes out as it is recorded, and text as the streaming mode allows.
final class StreamDelivery: WalkDelivery {
    private let continuation: AsyncThrowingStream<RoutedStreamEvent, any Error>.Continuation
    private let buffered: Bool
    /// One sink per model called, by position: a rejected answer's held text is delivered if it is returned last.
    private let sinks = Mutex<[Int: DeltaSink]>([:])
    /// Progressive streams in a hedged race: positions whose text is held until they win, with what to call at
    /// their first delta.
    private let racing = Mutex<[Int: @Sendable () -> Void]>([:])
    /// Every delta the app has been shown since the stream began or was last reset, across models.
    private let shown = ShownText()
    /// Recovering calls that continue the text shown, by position: the text they may repeat before going on.
    private let echoes = Mutex<[Int: String]>([:])

    init(_ continuation: AsyncThrowingStream<RoutedStreamEvent, any Error>.Continuation, buffered: Bool) {
        self.continuation = continuation
        self.buffered = buffered
    }

    func call(
        _ candidate: Candidate, _ request: GenerationRequest, position: Int, until limit: ContinuousClock.Instant?,
        clock: RouterClock
    ) async -> (outcome: RaceOutcome<GenerationResponse>, deliveredText: Bool) {
        let firstText = racing.withLock { $0.removeValue(forKey: position) }
        let echo = echoes.withLock { $0.removeValue(forKey: position) }
        let sink = DeltaSink(continuation, shown: shown, buffered: buffered, firstText: firstText, echo: echo)
        sinks.withLock { $0[position] = sink }
        let outcome = await DeadlineRace.run(until: limit, clock: clock) { () async throws(GenerationError) in
            try await Router.consume(candidate.model, request, into: sink)
        }
        sink.close()
        return (outcome, sink.deliveredText)
    }

    func recorded(_ attempts: ArraySlice<RouteAttempt>) {
        for attempt in attempts { continuation.yield(.attempt(attempt)) }
    }

    func holdText(of position: Int, firstText: @escaping @Sendable () -> Void) -> Bool {
        guard !buffered else { return false }
        racing.withLock { $0[position] = firstText }
        return true
    }

    func release(_ position: Int) {
        sinks.withLock { $0[position] }?.release()
    }

    func generatedTokens(of position: Int) -> Int {
        TokenEstimator.estimate(scalars: sinks.withLock { $0[position] }?.receivedScalars ?? 0)
    }

    func deliver(_ response: GenerationResponse, position: Int) {
        // Held text goes out now; an answer whose text never went out (cached, or a model that sent no deltas)
        // goes out whole, less the text it continues.
        if let sink = sinks.withLock({ $0[position] }), sink.flush() { return }
        let before = shown.text
        let rest = response.text.hasPrefix(before) ? String(response.text.dropFirst(before.count)) : response.text
        if !rest.isEmpty { continuation.yield(.delta(rest)) }
    }

    func takeOver(_ request: inout GenerationRequest, mode: RoutingConfig.StreamRecovery, position: Int) -> String {
        let text = shown.text
        guard !text.isEmpty else { return "" }
        // Constrained decoding (a schema, tool calls) starts at the root: such a request cannot continue a prefix.
        if mode == .continueAnswer, request.responseSchema == nil, request.tools.isEmpty {
            request.messages.append(ChatMessage(role: .assistant, content: text))
            echoes.withLock { $0[position] = text }
            return text
        }
        shown.clear()
        continuation.yield(.reset)
        return ""
    }
}

/// The text a routed stream has shown since it began or was last reset.
final class ShownText: Sendable {
    private let state = Mutex("")

    var text: String { state.withLock { $0 } }

    func append(_ text: String) { state.withLock { $0 += text } }

    func clear() { state.withLock { $0 = "" } }
}

/// Forwards one model's deltas to the routed stream until closed, remembering whether any text went out (after
/// which no fallback is allowed); in buffered mode it holds them until `flush`, after the checks passed. Locked
/// because the model call runs in its own task.
final class DeltaSink: Sendable {
    private struct State {
        var open = true
        var delivered = false
        var held: [String] = []
        /// Unicode scalars of every delta received while open, delivered or not: what a cancelled call is billed for.
        var received = 0
        /// A progressive stream in a hedged race holds its text until it wins (`release`).
        var racing: Bool
        var firstText: (@Sendable () -> Void)?
        /// A recovering call continuing shown text: that text, which the model may repeat first (llama-server
        /// echoes an assistant prefill); nil once its own text began.
        var echo: String?
        /// What the call sent while it could still be repeating `echo`.
        var echoed = ""

        /// `text` less what repeats the shown text: held while every character so far matches it.
        mutating func pastEcho(_ text: String) -> String? {
            guard let echo else { return text }
            echoed += text
            if echo.hasPrefix(echoed) { return nil }
            defer { self.echo = nil; echoed = "" }
            return echoed.hasPrefix(echo) ? String(echoed.dropFirst(echo.count)) : echoed
        }
    }

    private let continuation: AsyncThrowingStream<RoutedStreamEvent, any Error>.Continuation
    private let shown: ShownText
    private let buffered: Bool
    private let state: Mutex<State>

    /// `firstText`: the call races another; its text is held and `firstText` runs at its first delta. `echo`: the
    /// call continues this shown text, and its repetition of it is not shown twice.
    init(
        _ continuation: AsyncThrowingStream<RoutedStreamEvent, any Error>.Continuation, shown: ShownText = ShownText(),
        buffered: Bool = false, firstText: (@Sendable () -> Void)? = nil, echo: String? = nil
    ) {
        self.continuation = continuation
        self.shown = shown
        self.buffered = buffered
        state = Mutex(State(racing: firstText != nil, firstText: firstText, echo: echo))
    }

    func yield(_ received: String) {
        let first = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.open else { return nil }
            state.received += TokenEstimator.scalarCount(received)
            guard let text = state.pastEcho(received), !text.isEmpty else { return nil }
            if buffered || state.racing {
                state.held.append(text)
                defer { state.firstText = nil }
                return state.firstText
            }
            state.delivered = true
            shown.append(text)
            continuation.yield(.delta(text))
            return nil
        }
        first?()
    }

    /// The call won its race: held text goes out and later text passes straight through.
    func release() {
        state.withLock { state in
            state.racing = false
            for text in state.held {
                shown.append(text)
                continuation.yield(.delta(text))
            }
            state.delivered = state.delivered || !state.held.isEmpty
            state.held = []
        }
    }

    /// Delivers held deltas, in order (buffered mode, once the answer is accepted); true when any of this
    /// model's text has now reached the app.
    @discardableResult
    func flush() -> Bool {
        let (held, delivered) = state.withLock { state -> ([String], Bool) in
            defer { state.held = [] }
            state.delivered = state.delivered || !state.held.isEmpty
            return (state.held, state.delivered)
        }
        for text in held {
            shown.append(text)
            continuation.yield(.delta(text))
        }
        return delivered
    }

    /// Stops forwarding: a cancelled call's late deltas must not follow the router's verdict.
    func close() {
        state.withLock { $0.open = false }
    }

    var deliveredText: Bool { state.withLock { $0.delivered } }

    /// Unicode scalars received so far (see ``State/received``).
    var receivedScalars: Int { state.withLock { $0.received } }
}
