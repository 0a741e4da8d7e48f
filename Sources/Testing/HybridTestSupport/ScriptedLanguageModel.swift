public import HybridCore
import Synchronization
package import HybridVirtualTime

/// A `LanguageModel` that answers from a script: replies, typed errors, delays or never, recording every request.
///
/// Each call (`generate` or `stream`) takes the next step; when the script runs out, `whenExhausted` is played for
/// every further call. Delays and `.hang` are real `Task.sleep`s that end early on cancellation, in which case the
/// call throws `.cancelled` and `cancellations` goes up, so tests can see that a router dropped a losing call.
/// On a virtual clock (`run(on:)`, the router's own tests) a delay advances that clock instead, and a call that
/// would run past its request's deadline (or hangs) hands the race to the router's timer: no test sleeps.
/// Safe to share between tasks: all state is behind a lock.
public final class ScriptedLanguageModel: LanguageModel {
    /// One scripted answer.
    public enum Step: Sendable {
        /// Answers `text` after an optional delay; `usage` defaults to an estimate from the prompt and the text.
        /// Streamed, the text arrives as one delta per word (spaces kept).
        case reply(String, usage: TokenUsage? = nil, after: Duration? = nil)
        /// Throws `error` after an optional delay.
        case fail(GenerationError, after: Duration? = nil)
        /// Never answers; ends only when the caller cancels (then throws `.cancelled`).
        case hang
        /// Streamed: yields `deltas`, then fails with `error` (mid-stream failure). Through `generate`, just fails.
        case partialThenFail([String], GenerationError)
        /// Streamed: yields `deltas`, then never answers (a stream stalled mid-answer, ended only by a cancel).
        /// Through `generate`, just hangs.
        case partialThenHang([String])
        /// Asks for `calls` (no text, finish reason `tool_call`): a conversation turn's tool step.
        case callTools([ToolCall])
    }

    private struct State {
        var script: [Step]
        var availability: ModelAvailability
        var requests: [GenerationRequest] = []
        var callCount = 0
        var cancellations = 0
        var preparations = 0
        var prepareFailure: GenerationError?
        var clock: VirtualClock?
        /// Tasks waiting in `waitUntil` for a count to be reached.
        var waiters: [(ready: @Sendable (Counts) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        var counts: Counts { Counts(calls: callCount, cancellations: cancellations) }

        /// Removes and returns the waiters whose condition now holds.
        mutating func due() -> [CheckedContinuation<Void, Never>] {
            let now = counts
            let ready = waiters.filter { $0.ready(now) }.map(\.continuation)
            waiters.removeAll { $0.ready(now) }
            return ready
        }
    }

    /// Calls received and calls cancelled so far, for `waitUntil`.
    public struct Counts: Sendable {
        /// Calls received (`generate` and `stream`).
        public var calls: Int
        /// Calls that ended because the caller cancelled them.
        public var cancellations: Int
    }

    public let id: String
    public let displayName: String
    public let tier: ModelTier
    public let capabilities: ModelCapabilities
    /// Played for every call once the script is used up.
    public let whenExhausted: Step
    private let recordRequests: Bool
    private let state: Mutex<State>

    /// - Parameters:
    ///   - script: steps played in order, one per call.
    ///   - whenExhausted: played for every call after the script; by default a failure that names the model.
    ///   - recordRequests: false keeps memory flat in benchmarks that make millions of calls.
    public init(
        id: String,
        tier: ModelTier = .onDevice,
        contextWindow: Int = 4096,
        maxOutputTokens: Int? = nil,
        availability: ModelAvailability = .available,
        script: [Step] = [],
        whenExhausted: Step? = nil,
        recordRequests: Bool = true
    ) {
        self.id = id
        self.displayName = id
        self.tier = tier
        self.capabilities = ModelCapabilities(
            streaming: true, structuredOutput: true, contextWindow: contextWindow, maxOutputTokens: maxOutputTokens)
        self.whenExhausted = whenExhausted ?? .fail(.serverError(model: id, status: nil, detail: "ScriptedLanguageModel: script exhausted"))
        self.recordRequests = recordRequests
        self.state = Mutex(State(script: script, availability: availability))
    }

    /// Requests received, in order (empty when `recordRequests` is false).
    public var requests: [GenerationRequest] { state.withLock { $0.requests } }
    /// Calls received (`generate` and `stream`).
    public var callCount: Int { state.withLock { $0.callCount } }
    /// Calls that ended because the caller cancelled them while they waited.
    public var cancellations: Int { state.withLock { $0.cancellations } }

    /// Returns once `condition` holds for the counts (a call arrived, a cancellation reached the model), without
    /// polling: cancellation reaches a call asynchronously, after the router has already returned.
    public func waitUntil(_ condition: @escaping @Sendable (Counts) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if condition(state.counts) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Runs delays and hangs on `clock` from now on (see the type's notes).
    package func run(on clock: VirtualClock) {
        state.withLock { $0.clock = clock }
    }

    private func count(_ update: (inout State) -> Void) {
        let due = state.withLock { state in
            update(&state)
            return state.due()
        }
        for continuation in due { continuation.resume() }
    }

    /// How many times `prepare()` was called.
    public var preparations: Int { state.withLock { $0.preparations } }

    /// Makes every further `prepare()` throw `error` (nil: succeed again).
    public func setPrepareFailure(_ error: GenerationError?) {
        state.withLock { $0.prepareFailure = error }
    }

    /// Counts the call; throws the failure set by `setPrepareFailure`, if any.
    public func prepare() async throws(GenerationError) {
        let failure = state.withLock { s in
            s.preparations += 1
            return s.prepareFailure
        }
        if let failure { throw failure }
    }

    /// Changes what `availability()` reports from now on.
    public func setAvailability(_ availability: ModelAvailability) {
        state.withLock { $0.availability = availability }
    }

    /// Appends steps to the script.
    public func enqueue(_ steps: Step...) {
        state.withLock { $0.script.append(contentsOf: steps) }
    }

    public func availability() async -> ModelAvailability {
        state.withLock { $0.availability }
    }

    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        let step = nextStep(for: request)
        let clock = ContinuousClock()
        let start = clock.now
        switch step {
        case .reply(let text, let usage, let delay):
            if let delay { try await wait(delay, until: request.deadline) }
            return response(text: text, usage: usage, request: request, total: clock.now - start)
        case .fail(let error, let delay):
            if let delay { try await wait(delay, until: request.deadline) }
            throw error
        case .hang, .partialThenHang:
            try await wait(nil, until: request.deadline)
            throw .cancelled(model: id)
        case .partialThenFail(_, let error):
            throw error
        case .callTools(let calls):
            var answer = response(text: "", usage: nil, request: request, total: clock.now - start)
            answer.toolCalls = calls
            answer.finishReason = .toolCall
            return answer
        }
    }

    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let step = nextStep(for: request)
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            do throws(GenerationError) {
                switch step {
                case .reply(let text, let usage, let delay):
                    if let delay { try await wait(delay, until: request.deadline) }
                    for word in Self.words(text) { continuation.yield(.delta(word)) }
                    continuation.yield(.completed(response(text: text, usage: usage, request: request, total: clock.now - start)))
                    continuation.finish()
                case .fail(let error, let delay):
                    if let delay { try await wait(delay, until: request.deadline) }
                    throw error
                case .hang:
                    try await wait(nil, until: request.deadline)
                    throw .cancelled(model: id)
                case .partialThenFail(let deltas, let error):
                    for delta in deltas { continuation.yield(.delta(delta)) }
                    throw error
                case .partialThenHang(let deltas):
                    for delta in deltas { continuation.yield(.delta(delta)) }
                    try await wait(nil, until: request.deadline)
                    throw .cancelled(model: id)
                case .callTools(let calls):
                    var answer = response(text: "", usage: nil, request: request, total: clock.now - start)
                    answer.toolCalls = calls
                    answer.finishReason = .toolCall
                    continuation.yield(.completed(answer))
                    continuation.finish()
                }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func nextStep(for request: GenerationRequest) -> Step {
        var step = whenExhausted
        count { state in
            state.callCount += 1
            if recordRequests { state.requests.append(request) }
            if !state.script.isEmpty { step = state.script.removeFirst() }
        }
        return step
    }

    /// Sleeps for `duration` (forever when nil), turning cancellation into `.cancelled` and counting it.
    private func wait(_ duration: Duration?, until deadline: ContinuousClock.Instant?) async throws(GenerationError) {
        if let clock = state.withLock({ $0.clock }) {
            let end = duration.map { clock.now + $0 }
            if let end, deadline.map({ end <= $0 }) ?? true {
                clock.advance(to: end)
                return
            }
            // Past the deadline, or hanging: time runs to the deadline and the router's timer cuts the call.
            if let deadline { clock.expire(through: deadline) }
            await clock.waitForCancellation()
        } else {
            do {
                if let duration {
                    try await Task.sleep(for: duration)
                    return
                }
                while true { try await Task.sleep(for: .seconds(3600)) }
            } catch {}
        }
        count { $0.cancellations += 1 }
        throw .cancelled(model: id)
    }

    private func response(text: String, usage: TokenUsage?, request: GenerationRequest, total: Duration) -> GenerationResponse {
        let prompt = ([request.instructions ?? ""] + request.messages.map(\.content)).joined(separator: "\n")
        return GenerationResponse(
            text: text, servedBy: identity, providerModel: "scripted",
            usage: usage ?? .estimated(prompt: prompt, completion: text),
            timing: GenerationTiming(timeToFirstToken: nil, total: total), finishReason: .stop)
    }

    /// `text` cut after each space, so the pieces concatenate back to `text`.
    static func words(_ text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == " " {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}
