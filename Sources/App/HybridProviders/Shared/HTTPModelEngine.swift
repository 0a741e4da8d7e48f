import Foundation
import HybridCore
import HybridTransport
import Logging

/// The provider-independent half of every HTTP adapter: API key lookup, deadlines, sending, timing,
/// cancellation, error-body collection, usage estimation and logging. The `WireFormat` does the rest.
///
/// Timing starts right before the request is handed to the transport; `total` ends with the body; TTFT is the
/// first non-empty text delta of a stream (a non-streaming response has none, because its headers arrive after
/// generation has finished). Without reported usage, usage is `TokenUsage.estimated` (flagged). Every error
/// detail and log line goes through the key redactor.
struct HTTPModelEngine<Wire: WireFormat>: Sendable {
    let identity: ModelIdentity
    let wire: Wire
    let transport: any HTTPTransport
    let environment: @Sendable (String) -> String?
    let apiKeyVariable: String?
    /// Where the key comes from, named by an authentication failure.
    let keySource: String
    let timeouts: HTTPTimeouts
    let maxResponseBytes: Int
    let streaming: Bool
    let logger: Logger

    /// The engine of one model, its settings taken from the wire format's setup.
    init(wire: Wire, transport: any HTTPTransport, environment: @escaping @Sendable (String) -> String?, logger: Logger) {
        let setup = wire.setup
        identity = ModelIdentity(id: setup.id, tier: setup.tier)
        self.wire = wire
        self.transport = transport
        self.environment = environment
        apiKeyVariable = setup.apiKeyVariable
        keySource = Self.keySource(transport: transport, variable: setup.apiKeyVariable)
        timeouts = setup.settings.timeouts
        maxResponseBytes = setup.settings.maxResponseBytes
        streaming = setup.capabilities.streaming
        self.logger = logger
    }

    /// How long a stream may wait for its first byte when the settings name no limit.
    static var defaultStreamFirstByte: Duration { .seconds(30) }

    /// Error bodies are read up to this size; the rest is dropped (which cancels the transfer).
    static var errorBodyLimit: Int { 64 << 10 }

    var modelID: String { identity.id }

    // MARK: - API key

    enum KeyLookup: Equatable {
        case notRequired
        case present(String)
        case missing(variable: String)
    }

    static func keySource(transport: any HTTPTransport, variable: String?) -> String {
        if let credentialed = transport as? CredentialedTransport { return credentialed.keySource }
        if let variable, !variable.isEmpty { return "the key in environment variable \(variable)" }
        return "no key: the model's config names none (apiKeyEnv) and the app passed no ModelCredentials"
    }

    func apiKey() -> KeyLookup {
        guard let variable = apiKeyVariable, !variable.isEmpty else { return .notRequired }
        guard let value = environment(variable)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return .missing(variable: variable)
        }
        return .present(value)
    }

    /// `.unavailable(.missingAPIKey)` when the configured key variable is unset or empty, else what the wire
    /// format's probe says (`.available` for every format but Ollama's).
    func availability() async -> ModelAvailability {
        if case .missing(let variable) = apiKey() { return .unavailable(.missingAPIKey(variable: variable)) }
        return await wire.probe(transport: transport)
    }

    // MARK: - Public operations

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await respond(request, stream: false)
    }

    /// What `stream` ends with, read on the caller's task: no stream task, no hand-over of each delta.
    func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await respond(request, stream: streaming)
    }

    /// The whole response of one request, its failure logged: what `generate` and `generateStreamed` share.
    private func respond(_ request: GenerationRequest, stream: Bool) async throws(GenerationError) -> GenerationResponse {
        do {
            return try await run(request, stream: stream, onEvent: { _ in })
        } catch {
            logFailure(error)
            throw error
        }
    }

    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let engine = self
        let task = Self.taskPreferringCurrentExecutor {
            do throws(GenerationError) {
                let response: GenerationResponse
                if engine.streaming {
                    response = try await engine.run(request, stream: true) { continuation.yield($0) }
                } else {
                    // Without streaming the whole text arrives as one delta (and each tool call as one fragment),
                    // so callers can always consume `stream`.
                    response = try await engine.run(request, stream: false, onEvent: { _ in })
                    if !response.text.isEmpty { continuation.yield(.delta(response.text)) }
                    for (index, call) in response.toolCalls.enumerated() {
                        continuation.yield(.toolCallDelta(ToolCallDelta(index: index, call: call)))
                    }
                }
                continuation.yield(.completed(response))
                continuation.finish()
            } catch {
                engine.logFailure(error)
                // Only the consumer's termination cancels this task: it asked for no more events, so the stream
                // ends as a cancelled iteration does, quietly. Throwing here raced the stream's own finish: a
                // consumer that cancelled itself mid-stream sometimes got `.cancelled` thrown instead.
                if error.kind == .cancelled, Task.isCancelled {
                    continuation.finish()
                } else {
                    continuation.finish(throwing: error)
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }

    /// A task for `operation` that prefers the caller's task executor, if the caller has one. An eval's samples
    /// run on the HTTP transport's thread (`EvalOptions.taskExecutor`); a stream they consume is then produced
    /// there too, instead of on the global pool with a thread hop per event.
    private static func taskPreferringCurrentExecutor(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *),
            let executor = withUnsafeCurrentTask(body: { $0?.unownedTaskExecutor })?.asTaskExecutor()
        {
            return Task(executorPreference: executor, operation: operation)
        }
        return Task(operation: operation)
    }

    // MARK: - One call

    private struct Call: Sendable {
        var http: HTTPRequest
        var context: WireContext
        /// The request's deadline, not the configured limit, set the total timeout.
        var deadlineCapped: Bool
        /// The output-token budget the response limit was derived from, for the error message.
        var maxOutputTokens: Int?
    }

    private func prepare(_ request: GenerationRequest, stream: Bool) throws(GenerationError) -> Call {
        if Task.isCancelled { throw .cancelled(model: modelID) }
        var key: String?
        switch apiKey() {
        case .notRequired: key = nil
        case .present(let value): key = value
        // Fail fast without sending: the router should skip the model, as `availability()` says, rather than
        // treat it as a rejected key.
        case .missing(let variable): throw .unavailable(model: modelID, reason: .missingAPIKey(variable: variable))
        }
        let context = WireContext(modelID: modelID, redactor: APIKeyRedactor(key: key), keySource: keySource)

        var limits = timeouts
        // A server that took the connection and never answers (a llama-server stuck in shutdown) would hold a stream
        // to the total limit; a live one sends its first byte with its first token, so a stream gets a first-byte
        // limit by default. A plain call's first byte is its whole answer, so it keeps the configured limits only.
        if stream, limits.firstByte == nil { limits.firstByte = Self.defaultStreamFirstByte }
        var deadlineCapped = false
        if let remaining = request.remainingTime() {
            guard remaining > .zero else { throw .timeout(model: modelID, after: nil, phase: .deadline) }
            // Every phase is bounded by what is left, so a server that accepts and never answers is cut at the
            // deadline whichever phase it stalls in.
            if limits.total.map({ remaining < $0 }) ?? true {
                limits.total = remaining
                deadlineCapped = true
            }
            if limits.connect.map({ remaining < $0 }) ?? true { limits.connect = remaining }
            if limits.firstByte.map({ remaining < $0 }) ?? true { limits.firstByte = remaining }
        }
        var http = try wire.httpRequest(for: request, stream: stream, apiKey: key, context: context)
        http.timeouts = limits
        http.maxBodyBytes = Self.responseLimit(for: request, ceiling: maxResponseBytes)
        return Call(http: http, context: context, deadlineCapped: deadlineCapped, maxOutputTokens: request.options.maxOutputTokens)
    }

    /// Response bytes allowed per requested output token: a streamed token arrives as one SSE event of a few
    /// hundred bytes of JSON framing (Anthropic's are the largest), and escaping can grow the text itself six-fold.
    static var responseBytesPerToken: Int { 1 << 10 }
    /// Allowance on top of the per-token budget for headers of the JSON, usage, timings and error bodies.
    static var responseBytesMargin: Int { 256 << 10 }

    /// The largest body a request can legitimately produce: generous for its output-token budget, never above
    /// `ceiling` (the configured `maxResponseBytes`). A server sending more is sending something else, and
    /// reading it all would cost memory and time for nothing.
    static func responseLimit(for request: GenerationRequest, ceiling: Int) -> Int {
        guard let tokens = request.options.maxOutputTokens, tokens > 0 else { return ceiling }
        let (budget, overflow) = tokens.multipliedReportingOverflow(by: responseBytesPerToken)
        return overflow ? ceiling : min(ceiling, budget + responseBytesMargin)
    }

    private func run(
        _ request: GenerationRequest, stream: Bool, onEvent: (GenerationEvent) -> Void
    ) async throws(GenerationError) -> GenerationResponse {
        let call = try prepare(request, stream: stream)
        logger.debug(
            "sending request",
            metadata: ["model": "\(modelID)", "url": "\(call.context.clean(URLRedaction.redact(call.http.url)))", "stream": "\(stream)"]
        )
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await transport.execute(call.http)
        } catch {
            throw map(error, call: call)
        }
        if Task.isCancelled { throw .cancelled(model: modelID) }
        guard (200..<300).contains(response.status) else {
            let body = try await collect(response.body, call: call, limit: Self.errorBodyLimit)
            throw wire.mapError(status: response.status, headers: response.headers, body: body, context: call.context)
        }

        var result = WireResult()
        var timeToFirstToken: Duration?
        if stream && !wire.isCompleteResponse(streamedWith: response.headers) {
            var decoder = wire.makeStreamDecoder(for: request)
            func deliver(_ deltas: [String]) {
                for delta in deltas where !delta.isEmpty {
                    if timeToFirstToken == nil { timeToFirstToken = ContinuousClock.now - start }
                    onEvent(.delta(delta))
                }
                // A tool call is the model's output too: its first fragment ends the wait for a first token.
                for delta in result.undeliveredToolCallDeltas {
                    if timeToFirstToken == nil { timeToFirstToken = ContinuousClock.now - start }
                    onEvent(.toolCallDelta(delta))
                }
                result.undeliveredToolCallDeltas.removeAll()
            }
            do {
                reading: for try await chunk in response.body {
                    if Task.isCancelled { throw GenerationError.cancelled(model: modelID) }
                    deliver(try decoder.feed(chunk, into: &result, context: call.context))
                    if result.complete && wire.endsAtCompletion { break reading }
                }
                if Task.isCancelled { throw GenerationError.cancelled(model: modelID) }
                deliver(try decoder.finish(into: &result, context: call.context))
            } catch {
                throw mapBodyError(error, call: call)
            }
        } else {
            let body = try await collect(response.body, call: call, limit: nil)
            try wire.decodeResponse(body, request: request, into: &result, context: call.context)
            if stream && !result.text.isEmpty { onEvent(.delta(result.text)) }
            if stream { result.undeliveredToolCallDeltas.forEach { onEvent(.toolCallDelta($0)) } }
        }
        if Task.isCancelled { throw .cancelled(model: modelID) }
        let total = ContinuousClock.now - start
        try wire.validate(result, request: request, context: call.context)
        return try makeResponse(result, request: request, context: call.context, timeToFirstToken: timeToFirstToken, total: total)
    }

    /// Reads a whole body. With a `limit`, stops reading there (dropping the stream cancels the transfer).
    private func collect(_ body: HTTPBody, call: Call, limit: Int?) async throws(GenerationError) -> Data {
        var data = Data()
        do {
            for try await chunk in body {
                data.append(chunk)
                if let limit, data.count >= limit { break }
            }
        } catch {
            throw mapBodyError(error, call: call)
        }
        if Task.isCancelled { throw .cancelled(model: modelID) }
        return data
    }

    private func mapBodyError(_ error: any Error, call: Call) -> GenerationError {
        switch error {
        case let transportError as TransportError: map(transportError, call: call)
        case let generationError as GenerationError: generationError
        case is CancellationError: .cancelled(model: modelID)
        default: .serverError(model: modelID, status: nil, detail: call.context.clean("reading the response failed: \(error)"))
        }
    }

    private func map(_ error: TransportError, call: Call) -> GenerationError {
        guard case .bodyTooLarge(_, let limit) = error else { return call.context.map(error, deadlineCapped: call.deadlineCapped) }
        let reason = call.maxOutputTokens.map { "more than a \($0)-token answer can need" } ?? "the configured maxResponseBytes"
        return .decodingFailure(model: modelID, detail: "response too large: it passed \(limit) bytes (\(reason)); stopped reading it")
    }

    private func makeResponse(
        _ result: WireResult, request: GenerationRequest, context: WireContext, timeToFirstToken: Duration?, total: Duration
    ) throws(GenerationError) -> GenerationResponse {
        let usage = result.usage ?? .estimated(prompt: Self.promptText(request), completion: result.text)
        var decodeRate = result.decodeTokensPerSecond
        if decodeRate == nil, let timeToFirstToken, !usage.isEstimated, usage.completionTokens > 0 {
            let decodeSeconds = (total - timeToFirstToken).seconds
            if decodeSeconds > 0 { decodeRate = Double(usage.completionTokens) / decodeSeconds }
        }
        let structured = request.responseSchema == nil ? nil : StructuredOutputParser.parse(result.text)
        logger.debug(
            "generation finished",
            metadata: [
                "model": "\(modelID)", "prompt_tokens": "\(usage.promptTokens)",
                "completion_tokens": "\(usage.completionTokens)", "estimated": "\(usage.isEstimated)",
            ]
        )
        return GenerationResponse(
            text: result.text,
            structured: structured,
            servedBy: identity,
            providerModel: result.providerModel,
            usage: usage,
            timing: GenerationTiming(
                timeToFirstToken: timeToFirstToken, total: total, decodeTokensPerSecond: decodeRate,
                serverPromptTime: result.serverPromptTime, serverGenerationTime: result.serverGenerationTime),
            finishReason: result.finishReason ?? (result.toolCalls.isEmpty ? .other("none") : .toolCall),
            toolCalls: result.toolCalls.calls
        )
    }

    private func logFailure(_ error: GenerationError) {
        // The description is already redacted: every detail went through `WireContext.clean`.
        logger.debug("generation failed", metadata: ["model": "\(modelID)", "kind": "\(error.kind.rawValue)", "error": "\(error)"])
    }

    /// Instructions and messages joined, for estimating prompt tokens.
    static func promptText(_ request: GenerationRequest) -> String {
        ([request.instructions].compactMap { $0 } + request.messages.map(\.content)).joined(separator: "\n")
    }
}
