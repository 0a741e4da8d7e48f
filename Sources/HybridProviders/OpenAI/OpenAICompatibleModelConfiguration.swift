public import HybridCore
public import HybridTransport

/// Everything that identifies one model behind one OpenAI-compatible endpoint.
///
/// The API key is never stored here: `apiKeyVariable` names the environment variable that holds it,
/// so configurations can be logged, stored and fetched remotely without leaking secrets.
public struct OpenAICompatibleModelConfiguration: HTTPModelConfiguration {
    /// Stable id (`openai-gpt-4o-mini`, `local-smollm2`).
    public var id: String
    /// Human-readable name for listings.
    public var displayName: String
    /// Where the model runs.
    public var tier: ModelTier
    /// The API root including the version path: `https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`,
    /// `http://127.0.0.1:11434/v1` (Ollama). `/chat/completions` is appended.
    public var baseURL: String
    /// The `model` field sent on the wire (`gpt-4o-mini`; llama.cpp serves its one model whatever this says).
    public var model: String
    /// Name of the environment variable holding the API key (`OPENAI_API_KEY`), or nil for servers without
    /// auth. When set, a missing or empty variable makes the model unavailable.
    public var apiKeyVariable: String?
    /// What the model can do.
    public var capabilities: ModelCapabilities
    /// Sent with every request after the standard headers (`OpenAI-Organization`, a gateway's routing header).
    public var extraHeaders: HTTPHeaders
    /// Transfer time limits; a request's deadline can only shorten `total`.
    public var timeouts: HTTPTimeouts
    /// Which body field carries `GenerationOptions.maxOutputTokens`.
    public var maxTokensParameter: MaxTokensParameter
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    public var maxResponseBytes: Int

    /// Creates a configuration; `displayName` defaults to `id`.
    public init(
        id: String,
        displayName: String? = nil,
        tier: ModelTier,
        baseURL: String,
        model: String,
        apiKeyVariable: String? = nil,
        capabilities: ModelCapabilities,
        extraHeaders: HTTPHeaders = HTTPHeaders(),
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        maxTokensParameter: MaxTokensParameter = .maxTokens,
        maxResponseBytes: Int = 32 << 20
    ) {
        self.id = id
        self.displayName = displayName ?? id
        self.tier = tier
        self.baseURL = baseURL
        self.model = model
        self.apiKeyVariable = apiKeyVariable
        self.capabilities = capabilities
        self.extraHeaders = extraHeaders
        self.timeouts = timeouts
        self.maxTokensParameter = maxTokensParameter
        self.maxResponseBytes = maxResponseBytes
    }

    /// The Chat Completions endpoint under `baseURL`.
    public var chatCompletionsURL: String { url(appending: "/chat/completions") }

    /// The Chat Completions wire format (`OpenAIWire`).
    public var wireFormat: HTTPWireFormat { HTTPWireFormat(OpenAIWire(configuration: self)) }

    /// Labels the default logger: `hybrid.providers.openai-compatible`.
    public static var loggerLabel: String { "hybrid.providers.openai-compatible" }

    /// The request field that limits output length.
    ///
    /// `max_tokens` is the default because llama.cpp, vLLM and Ollama all read it and OpenAI still accepts it for
    /// non-reasoning chat models. OpenAI deprecated it in favour of `max_completion_tokens` (which also bounds
    /// hidden reasoning tokens) and rejects `max_tokens` for o-series and newer reasoning models, so configure
    /// `.maxCompletionTokens` for those. Exactly one of the two fields is ever sent.
    public enum MaxTokensParameter: String, Sendable, Hashable, Codable {
        /// `max_tokens`: llama.cpp, vLLM, Ollama, older OpenAI chat models.
        case maxTokens = "max_tokens"
        /// `max_completion_tokens`: OpenAI reasoning models (o1, o3, gpt-5…).
        case maxCompletionTokens = "max_completion_tokens"
    }
}
