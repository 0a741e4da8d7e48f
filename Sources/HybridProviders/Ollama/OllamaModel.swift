import Foundation
public import HybridCore
public import HybridTransport
public import Logging

/// A model served by Ollama's native `POST /api/chat` (for its OpenAI-compatible `/v1`, use
/// `OpenAICompatibleModel`).
///
/// Behaviour callers can rely on:
/// - Streams are NDJSON: one JSON object per line, the last with `done: true`, `done_reason` and the counts.
///   Lines split across chunks are reassembled (`NDJSONLineParser`); a stream without `done: true` is incomplete.
/// - Usage is `prompt_eval_count` / `eval_count`; decode speed is `eval_count / eval_duration` (nanoseconds).
/// - Structured output sends the schema as `format`. Options go in `options` (`num_predict`, `temperature`,
///   `top_p`, `seed`, and `num_ctx` = `capabilities.contextWindow` unless `sendsContextWindow` is false).
/// - Ollama silently truncates a prompt longer than `num_ctx` and answers as if nothing happened. When the
///   prompt's estimated size (`TokenEstimator`, about four characters per token) exceeds the window and
///   `prompt_eval_count` came back at most the window and below 90 % of the estimate, the call fails with
///   `.contextWindowExceeded` instead of returning an answer to a prompt the model never fully saw. The estimate
///   is rough: prompts within about 10 % of the window may slip through either way.
/// - Errors: 404 "model … not found" → `.unavailable(.notInstalled)` with the `ollama pull` command; a
///   `{"error": …}` line mid-stream → `.serverError`.
public struct OllamaModel: LanguageModel {
    /// The server and model this instance talks to.
    public let configuration: Configuration
    private let engine: HTTPModelEngine<OllamaWire>
    private let transport: any HTTPTransport

    /// Creates the model.
    /// - Parameters:
    ///   - transport: sends the HTTP requests (`CurlTransport` in production, a scripted one in tests).
    ///   - environment: looks up environment variables by name (only used when `apiKeyVariable` is set).
    ///   - logger: receives debug lines about requests (never the key).
    public init(
        configuration: Configuration,
        transport: any HTTPTransport,
        environment: @escaping @Sendable (String) -> String? = ProcessEnvironment.value,
        logger: Logger = Logger(label: "hybrid.providers.ollama")
    ) {
        self.configuration = configuration
        self.transport = transport
        engine = HTTPModelEngine(
            identity: ModelIdentity(id: configuration.id, tier: configuration.tier),
            wire: OllamaWire(configuration: configuration),
            transport: transport,
            environment: environment,
            apiKeyVariable: configuration.apiKeyVariable,
            timeouts: configuration.timeouts,
            maxResponseBytes: configuration.maxResponseBytes,
            streaming: configuration.capabilities.streaming,
            logger: logger
        )
    }

    /// The configured id.
    public var id: String { configuration.id }
    /// The configured display name.
    public var displayName: String { configuration.displayName }
    /// The configured tier.
    public var tier: ModelTier { configuration.tier }
    /// The configured capabilities.
    public var capabilities: ModelCapabilities { configuration.capabilities }

    /// `.unavailable(.missingAPIKey)` when a configured key variable is unset, else `.available`. Does not probe
    /// the server (an unreachable server shows up as `.unavailable(.unreachable)` on the first request).
    /// Unavailable when a configured key is missing or no Ollama server answers `GET /api/version` within a second.
    ///
    /// Unlike a cloud API, an Ollama server on this machine is often simply not running, and saying so up front
    /// beats a connection error on the first request.
    public func availability() async -> ModelAvailability {
        if case .unavailable(let reason) = engine.availability() { return .unavailable(reason) }
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let probe = HTTPRequest(url: base + "/api/version", timeouts: HTTPTimeouts(connect: .seconds(1), firstByte: .seconds(1), total: .seconds(2)))
        do {
            let (response, _) = try await transport.send(probe)
            return response.status == 200
                ? .available : .unavailable(.unreachable("\(base)/api/version answered \(response.status)"))
        } catch {
            return .unavailable(.unreachable("no Ollama server at \(base) (start it with `ollama serve`)"))
        }
    }

    /// One complete response (`stream: false`). Throws only `GenerationError`.
    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generate(request)
    }

    /// Text deltas from the NDJSON stream, then exactly one `.completed`. Ending iteration early (or cancelling
    /// the consuming task) cancels the transfer.
    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        engine.stream(request)
    }

    /// The response `stream` ends with, read without the stream's task and event hand-over.
    public func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generateStreamed(request)
    }
}
