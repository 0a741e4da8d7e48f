public import HybridConfig
public import HybridCore
public import HybridProviders

/// One model of an app's priority order, declared in Swift: `.onDevice`, `.openAI(model:apiKey:)`, `.llamaServer()`,
/// any `LanguageModel`. A list of them is a complete config (``Router/init(models:instructions:options:configURL:configOptions:installId:stateDirectory:cache:policy:eventSink:eventLabels:)``),
/// the same document type a remote config is, so a fetched config can later override it without code changes.
public struct ModelChoice: Sendable {
    /// The model's id in the config (and in `servedBy`).
    public var id: String
    /// The model as a config declares it (kind, endpoint, tier, prices, window); never a key.
    public var config: ModelConfig
    /// Where its key or proxy headers come from; nil reads the config's `apiKeyEnv`, if any.
    var credentials: ModelCredentials?
    /// An instance the app built itself; used in place of building one from `config`.
    var instance: (any LanguageModel)?

    /// A model with an explicit config.
    public init(id: String, config: ModelConfig, credentials: ModelCredentials? = nil) {
        self.id = id
        self.config = config
        self.credentials = credentials
    }

    /// Apple's on-device system model (Foundation Models; Apple platforms with Apple Intelligence, unavailable
    /// elsewhere, so the router moves on).
    /// `model: "content-tagging"` selects Apple's content-tagging use case; the default is the general model.
    public static func onDevice(id: String = "on-device", model: String = "system") -> ModelChoice {
        ModelChoice(id: id, config: Self.config(.appleFoundationModels, nil, model, .onDevice, window: 4_096))
    }

    /// Apple's server model on Private Cloud Compute.
    public static func privateCloudCompute(id: String = "private-cloud-compute") -> ModelChoice {
        ModelChoice(id: id, config: Self.config(.applePrivateCloudCompute, nil, "system", .privateCloud, window: 32_768))
    }

    /// An OpenAI model, or any OpenAI-compatible endpoint (`baseURL`); `apiKey` may be a key, a keychain read or
    /// your proxy's headers. OpenAI's reasoning models (o1, o3, gpt-5) need `maxTokensField: .maxCompletionTokens`
    /// when a request limits its output. Without `pricing`, a model ``PublishedPrices`` lists gets its list price;
    /// any other has an unknown cost (never $0).
    public static func openAI(
        model: String = "gpt-4o-mini", apiKey: ModelCredentials, baseURL: String = "https://api.openai.com/v1",
        id: String? = nil, tier: ModelTier = .thirdParty, pricing: ModelPricing? = nil,
        maxTokensField: ModelConfig.MaxTokensField? = nil
    ) -> ModelChoice {
        var config = Self.config(.openAICompatible, baseURL, model, tier, window: 128_000, pricing: pricing).naming(apiKey)
        config.maxTokensField = maxTokensField
        return ModelChoice(id: id ?? "openai-\(model)", config: config, credentials: apiKey)
    }

    /// An Anthropic model (structured output as a forced tool call). Without `pricing`, ``PublishedPrices``' list
    /// price, or an unknown cost.
    public static func anthropic(
        model: String = "claude-3-5-haiku-latest", apiKey: ModelCredentials,
        baseURL: String = "https://api.anthropic.com/v1", id: String? = nil, pricing: ModelPricing? = nil
    ) -> ModelChoice {
        ModelChoice(
            id: id ?? "anthropic-\(model)",
            config: Self.config(.anthropic, baseURL, model, .thirdParty, window: 200_000, pricing: pricing).naming(apiKey),
            credentials: apiKey)
    }

    /// A Gemini model. Without `pricing`, ``PublishedPrices``' list price, or an unknown cost.
    public static func gemini(
        model: String = "gemini-2.0-flash", apiKey: ModelCredentials,
        baseURL: String = "https://generativelanguage.googleapis.com/v1beta", id: String? = nil,
        pricing: ModelPricing? = nil
    ) -> ModelChoice {
        ModelChoice(
            id: id ?? "gemini-\(model)",
            config: Self.config(.gemini, baseURL, model, .thirdParty, window: 1_048_576, pricing: pricing).naming(apiKey),
            credentials: apiKey)
    }

    /// A model served by Ollama on this machine.
    public static func ollama(model: String, baseURL: String = "http://127.0.0.1:11434", id: String? = nil) -> ModelChoice {
        ModelChoice(id: id ?? "ollama-\(model)", config: Self.config(.ollama, baseURL, model, .onDevice, window: 8_192),
                    credentials: ModelCredentials.none)
    }

    /// A llama.cpp `llama-server` the app (or the Mac it runs on) already runs: its OpenAI-compatible `/v1`.
    public static func llamaServer(
        url: String = "http://127.0.0.1:8080/v1", model: String = "local", id: String = "llama-server",
        contextWindow: Int = 4_096
    ) -> ModelChoice {
        ModelChoice(
            id: id, config: Self.config(.openAICompatible, url, model, .onDevice, window: contextWindow),
            credentials: ModelCredentials.none)
    }

    /// Any `LanguageModel` the app built (a mock, an adapter of its own); its `id` and `tier` are the config's.
    public static func model(_ model: any LanguageModel, contextWindow: Int = 8_192) -> ModelChoice {
        // The config needs a kind the validator accepts for the tier; the router uses the instance, never the kind.
        let kind: ProviderKind = model.tier == .thirdParty ? .openAICompatible : .llamaCpp
        let endpoint = model.tier == .thirdParty ? "https://app-provided.invalid/v1" : nil
        var choice = ModelChoice(
            id: model.id,
            config: Self.config(kind, endpoint, model.id, model.tier, window: contextWindow, displayName: model.displayName))
        choice.instance = model
        return choice
    }

    /// The variable name a declared hosted model's config carries: the validator wants a key source named, and the
    /// app's credentials (``ModelCredentials``) replace it when the model is built. Never a key.
    static let appProvidedKey = "APP_PROVIDED_KEY"

    private static func config(
        _ kind: ProviderKind, _ baseURL: String?, _ model: String, _ tier: ModelTier, window: Int,
        pricing: ModelPricing? = nil, displayName: String? = nil
    ) -> ModelConfig {
        ModelConfig(
            kind: kind, baseURL: baseURL, model: model, tier: tier,
            apiKeyEnv: tier == .thirdParty ? appProvidedKey : nil,
            pricing: pricing ?? (tier == .thirdParty ? PublishedPrices.price(of: model, kind: kind) : .free), contextWindow: window,
            capabilities: .init(structuredOutput: true, streaming: true), displayName: displayName)
    }
}

extension ModelChoice {
    /// The feature ``Router/respond(to:)`` uses when the app declared no features of its own.
    static let respondFeature = "respond"

    /// The config document `models` declare: the models, and one feature `respond` that sends the prompt as is,
    /// trying them in this order. Bundle it (or publish it) like any config.
    /// - Parameter options: generation options of the `respond` feature; by default at most 1,024 output tokens, so a
    ///   small model that loops ends and the next model gets its turn within the deadline.
    public static func document(
        _ models: [ModelChoice], instructions: String? = nil,
        options: FeatureGenerationOptions = FeatureGenerationOptions(maxOutputTokens: 1_024)
    ) -> HybridConfigDocument {
        let feature = FeatureConfig(
            description: "A prompt sent as is, models tried in the declared order.", instructions: instructions,
            variants: ["default": PromptVariant(template: "{{input}}")], defaultVariant: "default", options: options,
            priority: models.map(\.id), deadlineMs: 60_000, privacy: .open)
        return HybridConfigDocument(
            version: 1, description: "Declared in the app's code.",
            models: Dictionary(models.map { ($0.id, $0.config) }, uniquingKeysWith: { first, _ in first }),
            features: [respondFeature: feature])
    }

    /// The models the router builds: the app's own instances by id, the rest from their config with the declared
    /// credentials.
    static func provider(_ models: [ModelChoice], factory: ModelFactory = ModelFactory()) -> RouterModelProvider {
        var instances: [String: any LanguageModel] = [:]
        var factory = factory
        for model in models {
            if let instance = model.instance { instances[model.id] = instance }
            if let credentials = model.credentials { factory = factory.withCredentials(credentials, for: model.id) }
        }
        let built = factory
        let fixed = instances
        return RouterModelProvider(
            resolve: { id, config in fixed[id] ?? config.map { built.model(id: id, config: $0) } }, memoize: true)
    }
}

extension ModelConfig {
    /// The config naming `credentials`' environment variable when that is where the key lives.
    fileprivate func naming(_ credentials: ModelCredentials) -> ModelConfig {
        var copy = self
        if let variable = credentials.environmentVariable { copy.apiKeyEnv = variable }
        return copy
    }
}
