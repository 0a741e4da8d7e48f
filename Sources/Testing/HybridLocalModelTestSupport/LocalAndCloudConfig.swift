public import HybridConfig
import HybridConfigTools
import HybridCore
import HybridCurl
import HybridLocalModel
public import HybridProviders

/// The config the end-to-end tests run on: one feature of the bundled defaults served by the real local SmolLM2
/// first and a priced third-party model behind it, which is a loopback server speaking OpenAI Chat Completions
/// (`FakeChatCompletionsServer`; platform.openai.com/docs/api-reference/chat/create).
public enum LocalAndCloudConfig {
    /// The local model's id, as the bundled defaults name it.
    public static let localModel = "local-smollm2"
    /// The loopback cloud model's id.
    public static let cloudModel = "fake-cloud"
    /// The variable the cloud model's key is read from (`cloudFactory` supplies it; the loopback server ignores it).
    public static let cloudKeyVariable = "FAKE_CLOUD_KEY"

    /// The bundled defaults cut down to `feature`, ordered local then cloud, at temperature 0 and without a budget;
    /// `adjust` sets the test's variants, constraints, deadline or routing and `adjustLocal` the local model, before
    /// the document is validated.
    package static func document(
        feature name: String, cloudBaseURL: String, maxOutputTokens: Int, rollouts: [String: RolloutConfig] = [:],
        adjust: (inout FeatureConfig) -> Void = { _ in }, adjustLocal: (inout ModelConfig) -> Void = { _ in }
    ) throws -> HybridConfigDocument {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.version = 1
        var local = document.models[localModel]!
        adjustLocal(&local)
        document.models = [localModel: local, cloudModel: cloud(baseURL: cloudBaseURL)]
        var feature = document.features[name]!
        feature.priority = [localModel, cloudModel]
        feature.options = FeatureGenerationOptions(temperature: 0, maxOutputTokens: maxOutputTokens)
        feature.monthlyBudgetUSD = nil
        adjust(&feature)
        document.features = [name: feature]
        document.rollouts = rollouts
        return try ConfigValidator.validate(document).document
    }

    /// The loopback cloud model at `baseURL`: third-party tier, priced, structured output and streaming.
    public static func cloud(baseURL: String) -> ModelConfig {
        ModelConfig(
            kind: .openAICompatible, baseURL: baseURL, model: "fake", tier: .thirdParty, apiKeyEnv: cloudKeyVariable,
            pricing: ModelPricing(inputPerMillion: 0.1, outputPerMillion: 0.4), contextWindow: 8192,
            capabilities: .init(structuredOutput: true, streaming: true))
    }

    /// A factory over libcurl that has the cloud model's key and no local runtime (as on a phone); add the local
    /// model with `.withLocalLlama(.success(installation))`.
    public static func cloudFactory() -> ModelFactory {
        ModelFactory(transport: CurlTransport.shared, environment: { $0 == cloudKeyVariable ? "test-key" : nil })
    }
}
