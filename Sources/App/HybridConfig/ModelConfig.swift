public import HybridCore

/// One model a feature may route to: how to reach it, what it costs and what it can do.
///
/// The API key itself is never in the config: `apiKeyEnv` names the environment variable that holds it.
public struct ModelConfig: Sendable, Hashable, Codable {
    /// The configured capabilities (JSON keys `structuredOutput`, `streaming`).
    public struct Capabilities: Sendable, Hashable, Codable {
        /// The model can be held to a JSON schema.
        public var structuredOutput: Bool
        /// The model streams tokens.
        public var streaming: Bool

        /// Creates a capability override.
        public init(structuredOutput: Bool, streaming: Bool) {
            self.structuredOutput = structuredOutput
            self.streaming = streaming
        }
    }

    /// The Chat Completions request field that limits output length (JSON key `maxTokensField`).
    ///
    /// `max_tokens` is the default because llama.cpp, vLLM and Ollama all read it and OpenAI still accepts it for
    /// non-reasoning chat models. OpenAI deprecated it in favour of `max_completion_tokens` (which also bounds
    /// hidden reasoning tokens) and refuses `max_tokens` for o-series and newer reasoning models, so configure
    /// `max_completion_tokens` for those. Exactly one of the two fields is ever sent.
    public enum MaxTokensField: String, Sendable, Hashable, Codable, CaseIterable {
        /// `max_tokens`: llama.cpp, vLLM, Ollama, older OpenAI chat models.
        case maxTokens = "max_tokens"
        /// `max_completion_tokens`: OpenAI reasoning models (o1, o3, gpt-5…).
        case maxCompletionTokens = "max_completion_tokens"
    }

    /// Which API it speaks.
    public var kind: ProviderKind
    /// Endpoint root such as `https://api.openai.com/v1`; nil for kinds whose endpoint the harness manages
    /// (`llama-cpp`, `apple-foundation-models`).
    public var baseURL: String?
    /// The provider's model name (`gpt-4o-mini`, `claude-3-5-haiku-latest`).
    public var model: String
    /// Where it runs; privacy classes bound it.
    public var tier: ModelTier
    /// Name of the environment variable holding the API key, such as `OPENAI_API_KEY`.
    public var apiKeyEnv: String?
    /// Prices per million tokens (``ModelPricing/free`` for local models); nil when unknown: the cost of its calls is
    /// then reported as unknown (`RoutedResponse.totalCostUSD` is nil), never as $0, and a monthly budget over it is
    /// refused when the config is validated.
    public var pricing: ModelPricing?
    /// Prompt plus completion tokens it accepts (for llama.cpp, the server's `-c`).
    public var contextWindow: Int
    /// The most tokens one response may have, when below the context window.
    public var maxOutputTokens: Int?
    /// Chat Completions models only: the request field that carries the output-token limit; nil is `max_tokens`.
    public var maxTokensField: MaxTokensField?
    /// Requests an eval keeps in flight to this model at once; nil means the kind's default (the runner's
    /// `effectiveMaxConcurrency`). The CLI's `--per-model-concurrency` overrides it.
    package var maxConcurrency: Int?
    /// What it can do.
    public var capabilities: Capabilities
    /// Name for listings; the id is used when absent.
    public var displayName: String?

    /// Creates a model entry; nothing is checked here, `ConfigValidator` does that.
    public init(
        kind: ProviderKind,
        baseURL: String? = nil,
        model: String,
        tier: ModelTier,
        apiKeyEnv: String? = nil,
        pricing: ModelPricing?,
        contextWindow: Int,
        maxOutputTokens: Int? = nil,
        maxTokensField: MaxTokensField? = nil,
        capabilities: Capabilities,
        displayName: String? = nil
    ) {
        self.kind = kind
        self.baseURL = baseURL
        self.model = model
        self.tier = tier
        self.apiKeyEnv = apiKeyEnv
        self.pricing = pricing
        self.contextWindow = contextWindow
        self.maxOutputTokens = maxOutputTokens
        self.maxTokensField = maxTokensField
        self.capabilities = capabilities
        self.displayName = displayName
    }

    /// The capabilities in the core type adapters and the router use.
    package var modelCapabilities: ModelCapabilities {
        ModelCapabilities(
            streaming: capabilities.streaming,
            structuredOutput: capabilities.structuredOutput,
            contextWindow: contextWindow,
            maxOutputTokens: maxOutputTokens
        )
    }

    /// Whether a call to this model is billed per token (a monthly budget cap applies to it); a hosted model of
    /// unknown price is taken as billed.
    package var isMetered: Bool {
        guard let pricing else { return tier == .thirdParty }
        return pricing.inputPerMillion > 0 || pricing.outputPerMillion > 0 || (pricing.cachedInputPerMillion ?? 0) > 0
    }
}
