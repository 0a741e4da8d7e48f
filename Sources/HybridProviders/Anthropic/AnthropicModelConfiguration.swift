public import HybridCore
public import HybridTransport

/// Everything that identifies one Claude model behind the Anthropic Messages API.
///
/// The API key is never stored here: `apiKeyVariable` names the environment variable that holds it.
public struct AnthropicModelConfiguration: HTTPModelConfiguration {
    /// Stable id (`anthropic-claude-haiku`).
    public var id: String
    /// Human-readable name for listings.
    public var displayName: String
    /// Where the model runs (a third party by default).
    public var tier: ModelTier
    /// The API root including the version path, `https://api.anthropic.com/v1`; `/messages` is appended.
    public var baseURL: String
    /// The `model` field sent on the wire (`claude-3-5-haiku-latest`).
    public var model: String
    /// Name of the environment variable holding the key, sent as `x-api-key`; nil for a gateway without auth.
    public var apiKeyVariable: String?
    /// What the model can do.
    public var capabilities: ModelCapabilities
    /// Transfer time limits; a request's deadline can only shorten `total`.
    public var timeouts: HTTPTimeouts
    /// The `anthropic-version` header. The Messages API requires it; `2023-06-01` is the current stable value.
    public var anthropicVersion: String
    /// `max_tokens` when the request sets no `maxOutputTokens`: the API requires the field on every request.
    public var defaultMaxTokens: Int
    /// Sent with every request after the standard headers (`anthropic-beta`, a gateway's routing header).
    public var extraHeaders: HTTPHeaders
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    public var maxResponseBytes: Int

    /// Creates a configuration; `displayName` defaults to `id`.
    public init(
        id: String,
        displayName: String? = nil,
        tier: ModelTier = .thirdParty,
        baseURL: String = "https://api.anthropic.com/v1",
        model: String,
        apiKeyVariable: String? = "ANTHROPIC_API_KEY",
        capabilities: ModelCapabilities,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        anthropicVersion: String = "2023-06-01",
        defaultMaxTokens: Int = 1024,
        extraHeaders: HTTPHeaders = HTTPHeaders(),
        maxResponseBytes: Int = 32 << 20
    ) {
        self.id = id
        self.displayName = displayName ?? id
        self.tier = tier
        self.baseURL = baseURL
        self.model = model
        self.apiKeyVariable = apiKeyVariable
        self.capabilities = capabilities
        self.timeouts = timeouts
        self.anthropicVersion = anthropicVersion
        self.defaultMaxTokens = defaultMaxTokens
        self.extraHeaders = extraHeaders
        self.maxResponseBytes = maxResponseBytes
    }

    /// The Messages endpoint under `baseURL`.
    public var messagesURL: String { url(appending: "/messages") }

    /// The Messages API wire format (`AnthropicWire`).
    public var wireFormat: HTTPWireFormat { HTTPWireFormat(AnthropicWire(configuration: self)) }

    /// Labels the default logger: `hybrid.providers.anthropic`.
    public static var loggerLabel: String { "hybrid.providers.anthropic" }
}
