import Foundation
public import HybridCore
public import HybridTransport
public import Logging

/// A Claude model behind the Anthropic Messages API (`POST /v1/messages`).
///
/// Behaviour callers can rely on:
/// - Headers `x-api-key` and `anthropic-version`; instructions go in the top-level `system` field; `max_tokens`
///   is always sent (the request's `maxOutputTokens`, else `Configuration.defaultMaxTokens`, capped by
///   `capabilities.maxOutputTokens`). `.greedy` sampling sends `temperature: 0`; seeds are not supported and dropped.
/// - `stream` reads the SSE events `message_start` … `message_stop`; `ping` and unknown events are ignored, a
///   mid-stream `error` event fails the stream with the mapped error, and a stream without `message_stop` is an
///   incomplete response (`.serverError`).
/// - Structured output is a forced tool call: one tool named after `responseSchemaName` whose `input_schema` is
///   the request's schema, and `tool_choice` forcing it. The tool input (streamed as `input_json_delta`) becomes
///   the response text and `structured`; `finishReason` is `.toolCall`. The schema's root must be an object, as
///   the API requires of tool inputs.
/// - Usage: `promptTokens` is input + cache-creation + cache-read tokens, with the last two also reported as
///   `cacheCreationTokens` and `cachedTokens`; `completionTokens` is the cumulative `output_tokens` of the last
///   `message_delta`. Timing and TTFT as in `OpenAICompatibleModel`.
/// - Errors: 429 `rate_limit_error` → `.rateLimited` with `retry-after`; a spend-limit 429
///   (`enforced_spend_limit_reached`) or exhausted credit → `.rateLimited(retryable: false)`; 529
///   `overloaded_error` → `.unavailable`; 400 "prompt is too long" → `.contextWindowExceeded`; stop reason
///   `refusal` → `.refusal`. The API key never appears in an error or a log line.
public struct AnthropicModel: LanguageModel {
    /// The endpoint and model this instance talks to.
    public let configuration: Configuration
    private let engine: HTTPModelEngine<AnthropicWire>

    /// Creates the model.
    /// - Parameters:
    ///   - transport: sends the HTTP requests (`CurlTransport` in production, a scripted one in tests).
    ///   - environment: looks up environment variables by name; the key is read through it at each call.
    ///   - logger: receives debug lines about requests (never the key).
    public init(
        configuration: Configuration,
        transport: any HTTPTransport,
        environment: @escaping @Sendable (String) -> String? = ProcessEnvironment.value,
        logger: Logger = Logger(label: "hybrid.providers.anthropic")
    ) {
        self.configuration = configuration
        engine = HTTPModelEngine(
            identity: ModelIdentity(id: configuration.id, tier: configuration.tier),
            wire: AnthropicWire(configuration: configuration),
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
    /// The configured capabilities; `streaming: false` makes `stream` use the non-streaming call.
    public var capabilities: ModelCapabilities { configuration.capabilities }

    /// `.unavailable(.missingAPIKey)` when the key variable is unset or empty, else `.available`. Never touches
    /// the network.
    public func availability() async -> ModelAvailability { engine.availability() }

    /// One complete response from the non-streaming endpoint. Throws only `GenerationError`.
    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generate(request)
    }

    /// Text deltas as SSE events arrive, then exactly one `.completed`. Ending iteration early (or cancelling the
    /// consuming task) cancels the transfer.
    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        engine.stream(request)
    }

    /// The response `stream` ends with, read without the stream's task and event hand-over.
    public func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generateStreamed(request)
    }
}
