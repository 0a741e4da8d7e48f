package import HybridConfig
package import HybridCore
package import HybridTransport
package import Logging

/// A model behind an HTTP API, in the wire format its config entry's kind names: `AnthropicModel`,
/// `GeminiModel`, `OllamaModel` and `OpenAICompatibleModel` are this type, and their notes list what each format adds.
///
/// Behaviour every format shares (it is `HTTPModelEngine`'s):
/// - `generate` uses the non-streaming call; `stream` the provider's stream. With `capabilities.streaming` false,
///   `stream` uses the non-streaming call and delivers the whole text as one delta (and each tool call as one
///   fragment), so callers can always consume `stream`.
/// - Timing starts right before the request is handed to the transport. `total` ends with the body.
///   `timeToFirstToken` is measured only when streaming (first non-empty text or tool-call delta); a non-streaming
///   response has none, because its headers arrive after generation has finished. `decodeTokensPerSecond` comes
///   from the server's own timings when sent, else completion tokens / (total − TTFT) when both are known and usage
///   was reported, else nil.
/// - Without a reported usage, usage is `TokenUsage.estimated` (flagged).
/// - A configured but unset (or empty) API key variable fails fast with `.unavailable(reason: .missingAPIKey)` and
///   sends nothing: the router should skip the model, the same verdict `availability()` gives, rather than treat it
///   as a rejected key (`.authentication`, which is what a 401 from the server becomes). The key is read at each
///   call, so a key set after start-up is picked up.
/// - A request whose deadline has passed fails with `.timeout(phase: .deadline)` without sending; otherwise the
///   deadline caps the transport's timeouts, and running out of it is reported as `.deadline`.
/// - Errors and log lines never contain the API key (see `APIKeyRedactor`).
package struct HTTPLanguageModel: LanguageModel {
    /// The id, config entry and wire settings this instance talks with.
    let setup: HTTPModelSetup
    // The engine's operations as closures made where its wire format's type is known, so the engine is
    // specialized for each format; an existential over the generic engine would run its per-chunk loop unspecialized.
    private let availabilityCall: @Sendable () async -> ModelAvailability
    private let generateCall: @Sendable (GenerationRequest) async throws(GenerationError) -> GenerationResponse
    private let generateStreamedCall: @Sendable (GenerationRequest) async throws(GenerationError) -> GenerationResponse
    private let streamCall: @Sendable (GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error>

    /// Creates the model `id` as `config` declares it, in the wire format of `config.kind` (`llama-cpp` is a
    /// `llama-server`'s OpenAI-compatible API).
    /// - Parameters:
    ///   - settings: transfer limits, extra headers and a provider's own knobs; the defaults are what
    ///     ``ModelFactory`` builds every model with.
    ///   - transport: sends the HTTP requests (`CurlTransport` in production, a scripted one in tests).
    ///   - environment: looks up environment variables by name; the API key is read through it at each call.
    ///     Defaults to the process environment.
    ///   - logger: receives debug lines about requests (never the key); by default one labelled after the provider
    ///     (`hybrid.providers.anthropic`).
    /// - Precondition: `config.kind` is served over HTTP (not one of Apple's on-device or Private Cloud Compute kinds).
    package init(
        id: String,
        config: ModelConfig,
        settings: HTTPWireSettings = HTTPWireSettings(),
        transport: any HTTPTransport,
        environment: @escaping @Sendable (String) -> String? = ProcessEnvironment.value,
        logger: Logger? = nil
    ) {
        let setup = HTTPModelSetup(id: id, config: config, settings: settings)
        let logger = logger ?? Logger(label: config.kind.loggerLabel)
        func engine<Wire: WireFormat>(_ wire: Wire) -> HTTPModelEngine<Wire> {
            HTTPModelEngine(wire: wire, transport: transport, environment: environment, logger: logger)
        }
        switch config.kind {
        case .openAICompatible, .llamaCpp: self.init(setup, engine(OpenAIWire(setup: setup)))
        case .anthropic: self.init(setup, engine(AnthropicWire(setup: setup)))
        case .gemini: self.init(setup, engine(GeminiWire(setup: setup)))
        case .ollama: self.init(setup, engine(OllamaWire(setup: setup)))
        case .appleFoundationModels, .applePrivateCloudCompute:
            preconditionFailure("\(config.kind.rawValue) is not served over HTTP; ModelFactory builds its adapter")
        }
    }

    private init<Wire: WireFormat>(_ setup: HTTPModelSetup, _ engine: HTTPModelEngine<Wire>) {
        self.setup = setup
        availabilityCall = { await engine.availability() }
        generateCall = { (request) async throws(GenerationError) in try await engine.generate(request) }
        generateStreamedCall = { (request) async throws(GenerationError) in try await engine.generateStreamed(request) }
        streamCall = { engine.stream($0) }
    }

    /// The configured id.
    package var id: String { setup.id }
    /// The configured display name.
    package var displayName: String { setup.displayName }
    /// The configured tier.
    package var tier: ModelTier { setup.tier }
    /// The configured capabilities; `streaming: false` makes `stream` use the non-streaming call.
    package var capabilities: ModelCapabilities { setup.capabilities }

    /// `.unavailable(.missingAPIKey)` when the configured key variable is unset or empty. Otherwise `.available`
    /// without touching the network, except where a format probes its server (`OllamaModel`).
    package func availability() async -> ModelAvailability { await availabilityCall() }

    /// One complete response from the non-streaming call. Throws only `GenerationError`.
    package func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await generateCall(request)
    }

    /// Text and tool-call deltas as the provider's stream delivers them, then exactly one `.completed`. The stream
    /// fails only with `GenerationError`; ending iteration early (or cancelling the consuming task) cancels the
    /// transfer.
    package func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        streamCall(request)
    }

    /// The response `stream` ends with, read without the stream's task and event hand-over.
    package func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        try await generateStreamedCall(request)
    }
}
