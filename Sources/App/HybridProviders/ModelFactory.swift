import Foundation
public import HybridConfig
public import HybridCore
public import HybridTransport

/// Builds the `LanguageModel` for each model a config declares, by provider kind.
///
/// The one place that knows which adapter serves which `kind`; the router, the runner and the CLI ask it for
/// models by id, so a new provider is wired in here and nowhere else. Kinds whose adapter lives in a module an app
/// may not link (the llama.cpp server manager in HybridLocalModel) are registered by whoever links it.
public struct ModelFactory: Sendable {
    /// Builds the model for one configured id; gets the factory's shared transport.
    package typealias Builder = @Sendable (_ id: String, _ config: ModelConfig, _ transport: any HTTPTransport) -> any LanguageModel

    /// The HTTP client every adapter it builds shares.
    var transport: any HTTPTransport
    /// Reads API keys by variable name; injected so tests and apps control where keys come from.
    var environment: @Sendable (String) -> String?
    /// Builders registered for provider kinds, consulted before the built-in adapters.
    private(set) var registered: [ProviderKind: Builder] = [:]
    /// Credentials by model id, in place of the config's `apiKeyEnv` (an app's keys, keychain reads, proxy tokens).
    private(set) var credentials: [String: ModelCredentials] = [:]

    /// Creates a factory; by default keys come from the process environment and requests go through the platform's
    /// default transport. llama.cpp models are unavailable until registered (HybridLocalModel's `withLocalLlama()`).
    public init(
        transport: any HTTPTransport = URLSessionTransport.shared,
        environment: (@Sendable (String) -> String?)? = nil
    ) {
        self.transport = transport
        self.environment = environment ?? ProcessEnvironment.value
    }

    /// This factory with `build` serving every model of `kind` (replacing the built-in adapter, if any).
    package func registering(_ kind: ProviderKind, _ build: @escaping Builder) -> ModelFactory {
        var copy = self
        copy.registered[kind] = build
        return copy
    }

    /// This factory with `credentials` for the model with id `id` (replacing the config's `apiKeyEnv` for it).
    public func withCredentials(_ credentials: ModelCredentials, for id: String) -> ModelFactory {
        var copy = self
        copy.credentials[id] = credentials
        return copy
    }

    /// The model with id `id` as configured.
    public func model(id: String, config: ModelConfig) -> any LanguageModel {
        var config = config
        var transport = self.transport
        if let credentials = credentials[id] {
            config.apiKeyEnv = credentials.environmentVariable
            transport = credentials.transport(kind: config.kind, base: transport)
        }
        if let build = registered[config.kind] { return build(id, config, transport) }
        let displayName = config.displayName ?? id
        switch config.kind {
        case .llamaCpp:
            return UnsupportedModel(
                id: id, displayName: displayName, tier: config.tier, capabilities: config.modelCapabilities,
                kind: config.kind.rawValue,
                reason: "no llama.cpp runtime registered: link HybridLocalModel and use ModelFactory.withLocalLlama()")
        case .openAICompatible, .anthropic, .gemini, .ollama:
            return HTTPLanguageModel(id: id, config: config, transport: transport, environment: environment)
        case .appleFoundationModels:
            #if canImport(FoundationModels)
            if #available(macOS 26, iOS 26, *) {
                return FoundationModelsModel(
                    id: id, displayName: displayName, model: FoundationModelsModel.systemModel(named: config.model),
                    fallbackContextWindow: config.contextWindow)
            }
            #endif
            return UnsupportedModel(id: id, displayName: displayName, tier: config.tier,
                                    capabilities: config.modelCapabilities, kind: config.kind.rawValue)
        case .applePrivateCloudCompute:
            #if canImport(FoundationModels) && compiler(>=6.4)
            if #available(macOS 27, iOS 27, visionOS 27, *) {
                return PrivateCloudComputeModel(id: id, displayName: displayName, contextWindow: config.contextWindow)
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
struct UnsupportedModel: LanguageModel {
    package let id: String
    let displayName: String
    let tier: ModelTier
    let capabilities: ModelCapabilities
    /// The provider kind from the config, named in the unavailability reason.
    let kind: String
    /// Why no adapter serves it, with the fix when there is one.
    let reason: String

    /// A model that is always unavailable for `reason` (by default: the kind is not supported on this platform).
    init(
        id: String, displayName: String, tier: ModelTier, capabilities: ModelCapabilities, kind: String, reason: String? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.tier = tier
        self.capabilities = capabilities
        self.kind = kind
        self.reason = reason ?? "provider kind \(kind) is not supported on this platform"
    }

    func availability() async -> ModelAvailability {
        .unavailable(.other(reason))
    }

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        throw .unavailable(model: id, reason: .other(reason))
    }

    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: GenerationError.unavailable(model: id, reason: .other(reason))) }
    }
}
