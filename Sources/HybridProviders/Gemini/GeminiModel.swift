import Foundation
public import HybridCore
public import HybridTransport
public import Logging

/// A Gemini model behind the Gemini API's `generateContent` and `streamGenerateContent?alt=sse`.
///
/// Behaviour callers can rely on:
/// - The key goes in the `x-goog-api-key` header, never in the `?key=` query parameter the API also accepts:
///   URLs are copied into access logs, proxy logs, error messages and crash reports, while headers stay inside
///   the transport. (`URLRedaction` strips queries as a second line of defence, but the key is never there.)
/// - Instructions become `systemInstruction`; assistant turns use the role `model`; options become
///   `generationConfig` (`maxOutputTokens`, `temperature`, `topP`, `seed`; `.greedy` sends temperature 0).
/// - Structured output sets `responseMimeType: application/json` and `responseSchema`, converted to the API's
///   OpenAPI-subset schema (see `GeminiSchema`).
/// - Usage from `usageMetadata` of the last chunk: `promptTokens` = `promptTokenCount` (cached tokens included,
///   also reported as `cachedTokens`), `completionTokens` = `candidatesTokenCount` + `thoughtsTokenCount` (the
///   API counts thinking apart; both are billed as output), `reasoningTokens` = `thoughtsTokenCount`. Thought
///   parts are never part of the text.
/// - `finishReason` SAFETY (and the other content-policy reasons) and a blocked prompt (`promptFeedback.blockReason`)
///   are `.refusal`. A stream that ends without any `finishReason` is incomplete (`.serverError`).
/// - Errors: 429 `RESOURCE_EXHAUSTED` → `.rateLimited`, not retryable when a per-day quota was hit, else with the
///   `RetryInfo.retryDelay`; 400 `INVALID_ARGUMENT` about the input token count → `.contextWindowExceeded`;
///   an invalid key → `.authentication`; 503 → `.unavailable`.
public struct GeminiModel: LanguageModel {
    /// The endpoint and model this instance talks to.
    public let configuration: Configuration
    private let engine: HTTPModelEngine<GeminiWire>

    /// Creates the model.
    /// - Parameters:
    ///   - transport: sends the HTTP requests (`CurlTransport` in production, a scripted one in tests).
    ///   - environment: looks up environment variables by name; the key is read through it at each call.
    ///   - logger: receives debug lines about requests (never the key).
    public init(
        configuration: Configuration,
        transport: any HTTPTransport,
        environment: @escaping @Sendable (String) -> String? = ProcessEnvironment.value,
        logger: Logger = Logger(label: "hybrid.providers.gemini")
    ) {
        self.configuration = configuration
        engine = HTTPModelEngine(
            identity: ModelIdentity(id: configuration.id, tier: configuration.tier),
            wire: GeminiWire(configuration: configuration),
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
    /// The configured capabilities; `streaming: false` makes `stream` use `generateContent`.
    public var capabilities: ModelCapabilities { configuration.capabilities }

    /// `.unavailable(.missingAPIKey)` when the key variable is unset or empty, else `.available`. Never touches
    /// the network.
    public func availability() async -> ModelAvailability { engine.availability() }

    /// One complete response from `generateContent`. Throws only `GenerationError`.
    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generate(request)
    }

    /// Text deltas from `streamGenerateContent?alt=sse`, then exactly one `.completed`. Ending iteration early
    /// (or cancelling the consuming task) cancels the transfer.
    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        engine.stream(request)
    }

    /// The response `stream` ends with, read without the stream's task and event hand-over.
    public func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await engine.generateStreamed(request)
    }
}
