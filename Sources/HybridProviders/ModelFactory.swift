import Foundation
public import HybridConfig
public import HybridCore
public import HybridTransport

/// Builds the `LanguageModel` for each model a config declares, by provider kind.
///
/// The one place that knows which adapter serves which `kind`; the router, the runner and the CLI ask it for
/// models by id, so a new provider is wired in here and nowhere else.
public struct ModelFactory: Sendable {
    /// The HTTP client every adapter it builds shares.
    public var transport: any HTTPTransport
    /// Reads API keys by variable name; injected so tests and apps control where keys come from.
    public var environment: @Sendable (String) -> String?
    /// Where the local llama.cpp runtime is; discovered from `.hybrid/local-model.env` or the environment.
    public var localInstallation: Result<LocalModelInstallation, UnavailabilityReason>

    /// Creates a factory; by default keys come from the process environment and the local runtime is discovered.
    public init(
        transport: any HTTPTransport = CurlTransport.shared,
        environment: (@Sendable (String) -> String?)? = nil,
        localInstallation: Result<LocalModelInstallation, UnavailabilityReason>? = nil
    ) {
        self.transport = transport
        self.environment = environment ?? ProcessEnvironment.value
        self.localInstallation = localInstallation ?? LocalModelInstallation.discover()
    }

    /// The model with id `id` as configured.
    public func model(id: String, config: ModelConfig) -> any LanguageModel {
        let displayName = config.displayName ?? id
        switch config.kind {
        case .llamaCpp:
            return LocalLlamaModel(
                id: id, displayName: displayName, tier: config.tier, installation: localInstallation,
                contextSize: config.contextWindow, maxOutputTokens: config.maxOutputTokens, transport: transport)
        case .openAICompatible:
            return OpenAICompatibleModel(
                configuration: .init(
                    id: id, displayName: displayName, tier: config.tier, baseURL: config.baseURL ?? "",
                    model: config.model, apiKeyVariable: config.apiKeyEnv, capabilities: config.modelCapabilities),
                transport: transport, environment: environment)
        case .anthropic:
            return AnthropicModel(
                configuration: .init(
                    id: id, displayName: displayName, tier: config.tier,
                    baseURL: config.baseURL ?? "https://api.anthropic.com/v1", model: config.model,
                    apiKeyVariable: config.apiKeyEnv, capabilities: config.modelCapabilities,
                    defaultMaxTokens: config.maxOutputTokens ?? 1024),
                transport: transport, environment: environment)
        case .gemini:
            return GeminiModel(
                configuration: .init(
                    id: id, displayName: displayName, tier: config.tier,
                    baseURL: config.baseURL ?? "https://generativelanguage.googleapis.com/v1beta", model: config.model,
                    apiKeyVariable: config.apiKeyEnv, capabilities: config.modelCapabilities),
                transport: transport, environment: environment)
        case .ollama:
            return OllamaModel(
                configuration: .init(
                    id: id, displayName: displayName, tier: config.tier, baseURL: config.baseURL ?? "http://127.0.0.1:11434",
                    model: config.model, apiKeyVariable: config.apiKeyEnv, capabilities: config.modelCapabilities),
                transport: transport, environment: environment)
        case .appleFoundationModels:
            #if canImport(FoundationModels)
            if #available(macOS 26, iOS 26, *) {
                return FoundationModelsModel(id: id, displayName: displayName, contextWindow: config.contextWindow)
            }
            #endif
            return UnsupportedModel(id: id, displayName: displayName, tier: config.tier,
                                    capabilities: config.modelCapabilities, kind: config.kind.rawValue)
        }
    }

    /// Every model in `document`, sorted by id.
    public func models(in document: HybridConfigDocument) -> [any LanguageModel] {
        document.models.keys.sorted().map { model(id: $0, config: document.models[$0]!) }
    }
}

/// A configured model whose provider kind has no adapter on this platform (Apple Foundation Models on Linux).
///
/// Listed as unavailable with the reason rather than dropped, so a config written for several platforms still loads.
public struct UnsupportedModel: LanguageModel {
    public let id: String
    public let displayName: String
    public let tier: ModelTier
    public let capabilities: ModelCapabilities
    /// The provider kind from the config, named in the unavailability reason.
    public let kind: String

    public func availability() async -> ModelAvailability {
        .unavailable(.other("provider kind \(kind) is not supported on this platform"))
    }

    public func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        throw .unavailable(model: id, reason: .other("provider kind \(kind) is not supported on this platform"))
    }

    public func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: GenerationError.unavailable(
            model: id, reason: .other("provider kind \(kind) is not supported on this platform"))) }
    }
}
