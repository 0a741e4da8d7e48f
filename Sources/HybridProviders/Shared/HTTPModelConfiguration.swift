package import HybridCore
package import HybridTransport

/// Everything that identifies one model behind an HTTP API: the settings every provider shares, and the
/// provider's own (``Provider``), which also chooses the wire format.
///
/// The API key is never stored here: `apiKeyVariable` names the environment variable that holds it, so
/// configurations can be logged, stored and fetched remotely without leaking secrets.
package struct HTTPModelConfiguration: Sendable, Equatable {
    /// Stable id (`openai-gpt-4o-mini`, `anthropic-claude-haiku`).
    package var id: String
    /// Human-readable name for listings.
    package var displayName: String
    /// Where the model runs.
    package var tier: ModelTier
    /// The API or server root the provider's paths are appended to (`https://api.openai.com/v1`).
    package var baseURL: String
    /// The `model` field sent on the wire (`gpt-4o-mini`; llama.cpp serves its one model whatever this says).
    package var model: String
    /// Name of the environment variable holding the key, or nil (or empty) when the endpoint needs none. When
    /// set, a missing or empty variable makes the model unavailable.
    package var apiKeyVariable: String?
    /// What the model can do; `streaming: false` makes `stream` use the non-streaming call.
    package var capabilities: ModelCapabilities
    /// Transfer time limits; a request's deadline can only shorten them.
    package var timeouts: HTTPTimeouts
    /// Sent with every request after the standard headers (`OpenAI-Organization`, `anthropic-beta`, a gateway's
    /// routing header).
    package var extraHeaders: HTTPHeaders
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    package var maxResponseBytes: Int
    /// The provider, its wire format and the settings only it has.
    package var provider: Provider

    /// Creates a configuration. What is left out comes from `provider`: the tier, the API root and the key
    /// variable it usually has (`ANTHROPIC_API_KEY`, `GEMINI_API_KEY`; none for OpenAI-compatible servers and
    /// Ollama; pass `""` for none). `displayName` defaults to `id`.
    package init(
        _ provider: Provider,
        id: String,
        displayName: String? = nil,
        tier: ModelTier? = nil,
        baseURL: String? = nil,
        model: String,
        apiKeyVariable: String? = nil,
        capabilities: ModelCapabilities,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        extraHeaders: HTTPHeaders = HTTPHeaders(),
        maxResponseBytes: Int = 32 << 20
    ) {
        self.provider = provider
        self.id = id
        self.displayName = displayName ?? id
        self.tier = tier ?? provider.defaultTier
        self.baseURL = baseURL ?? provider.defaultBaseURL
        self.model = model
        self.apiKeyVariable = apiKeyVariable ?? provider.defaultAPIKeyVariable
        self.capabilities = capabilities
        self.timeouts = timeouts
        self.extraHeaders = extraHeaders
        self.maxResponseBytes = maxResponseBytes
    }
}

extension HTTPModelConfiguration {
    /// `baseURL` followed by `path`, without the doubled slash a configured trailing one would make.
    func url(appending path: String) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}
