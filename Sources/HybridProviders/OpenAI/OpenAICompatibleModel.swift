import Foundation
public import HybridCore
public import HybridTransport
public import Logging

/// A model behind an OpenAI-compatible Chat Completions endpoint: OpenAI, llama.cpp's `llama-server`,
/// vLLM, or Ollama's `/v1`.
///
/// Behaviour callers can rely on:
/// - `generate` uses the non-streaming endpoint; `stream` uses SSE with `stream_options.include_usage`.
/// - Timing starts right before the request is handed to the transport. `total` ends with the body.
///   `timeToFirstToken` is measured only when streaming (first non-empty content delta); a non-streaming
///   response has none, because its headers arrive after generation has finished. llama.cpp's `prompt_ms` is
///   not used as a TTFT: it excludes queueing and network time, so it would not compare with measured values.
///   `decodeTokensPerSecond` comes from llama.cpp `timings` when sent, else completion tokens / (total − TTFT)
///   when both are known and usage was reported, else nil.
/// - Without a reported `usage`, usage is `TokenUsage.estimated` (flagged).
/// - A configured but unset (or empty) API key variable fails fast with
///   `.unavailable(reason: .missingAPIKey)` and sends nothing: the router should skip the model, the same
///   verdict `availability()` gives, rather than treat it as a rejected key (`.authentication`, which is what a
///   401 from the server becomes).
/// - A request whose deadline has passed fails with `.timeout(phase: .deadline)` without sending; otherwise the
///   deadline caps the transport's total timeout, and running out of it is reported as `.deadline`.
/// - Errors never contain the API key (see `APIKeyRedactor`).
public struct OpenAICompatibleModel: LanguageModel {
    /// The endpoint and model this instance talks to.
    public let configuration: Configuration
    private let engine: HTTPModelEngine<OpenAIWire>

    /// Creates the model.
    /// - Parameters:
    ///   - transport: sends the HTTP requests (`CurlTransport` in production, a scripted one in tests).
    ///   - environment: looks up environment variables by name; the API key is read through it at each call,
    ///     so a key set after start-up is picked up. Defaults to the process environment.
    ///   - logger: receives debug lines about requests (never the key).
    public init(
        configuration: Configuration,
        transport: any HTTPTransport,
        environment: @escaping @Sendable (String) -> String? = ProcessEnvironment.value,
        logger: Logger = Logger(label: "hybrid.providers.openai-compatible")
    ) {
        self.configuration = configuration
        engine = HTTPModelEngine(
            identity: ModelIdentity(id: configuration.id, tier: configuration.tier),
            wire: OpenAIWire(configuration: configuration),
            transport: transport,
            environment: environment,
            apiKeyVariable: configuration.apiKeyVariable,
            timeouts: configuration.timeouts,
            maxResponseBytes: configuration.maxResponseBytes,
            streaming: configuration.capabilities.streaming,
            logger: logger
        )
    }

    /// The configured id (`Configuration.id`).
    public var id: String { configuration.id }
    /// The configured display name.
    public var displayName: String { configuration.displayName }
    /// The configured tier.
    public var tier: ModelTier { configuration.tier }
    /// The configured capabilities; `streaming: false` makes `stream` use the non-streaming endpoint.
    public var capabilities: ModelCapabilities { configuration.capabilities }

    /// `.unavailable(.missingAPIKey)` when the configured key variable is unset or empty, else `.available`.
    ///
    /// Never touches the network: probing a local server is the local-model manager's job.
    public func availability() async -> ModelAvailability { engine.availability() }

    /// One complete response from the non-streaming endpoint (`stream: false`). Throws only `GenerationError`.
    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generate(request)
    }

    /// Text deltas as SSE chunks arrive, then exactly one `.completed`. The stream fails only with
    /// `GenerationError`; ending iteration early (or cancelling the consuming task) cancels the transfer.
    ///
    /// When `capabilities.streaming` is false the non-streaming endpoint is used and its whole text arrives
    /// as one delta, so callers can always consume `stream`. A server that answers a streaming request with
    /// plain JSON is handled the same way.
    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        engine.stream(request)
    }

    /// The response `stream` ends with, read without the stream's task and event hand-over.
    public func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generateStreamed(request)
    }
}
