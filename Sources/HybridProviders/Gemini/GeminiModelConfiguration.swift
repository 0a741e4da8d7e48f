public import HybridCore
public import HybridTransport

/// Everything that identifies one Gemini model behind the Gemini API (Google AI Studio keys).
///
/// The API key is never stored here: `apiKeyVariable` names the environment variable that holds it.
public struct GeminiModelConfiguration: HTTPModelConfiguration {
    /// Stable id (`gemini-flash`).
    public var id: String
    /// Human-readable name for listings.
    public var displayName: String
    /// Where the model runs (a third party by default).
    public var tier: ModelTier
    /// The API root including the version path, `https://generativelanguage.googleapis.com/v1beta`;
    /// `/models/{model}:generateContent` (or `:streamGenerateContent?alt=sse`) is appended.
    public var baseURL: String
    /// The model name in the path (`gemini-2.0-flash`).
    public var model: String
    /// Name of the environment variable holding the key, sent as `x-goog-api-key`; nil for a proxy without auth.
    public var apiKeyVariable: String?
    /// What the model can do.
    public var capabilities: ModelCapabilities
    /// Transfer time limits; a request's deadline can only shorten `total`.
    public var timeouts: HTTPTimeouts
    /// Sent with every request after the standard headers.
    public var extraHeaders: HTTPHeaders
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    public var maxResponseBytes: Int

    /// Creates a configuration; `displayName` defaults to `id`.
    public init(
        id: String,
        displayName: String? = nil,
        tier: ModelTier = .thirdParty,
        baseURL: String = "https://generativelanguage.googleapis.com/v1beta",
        model: String,
        apiKeyVariable: String? = "GEMINI_API_KEY",
        capabilities: ModelCapabilities,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
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
        self.extraHeaders = extraHeaders
        self.maxResponseBytes = maxResponseBytes
    }

    /// `…/models/{model}:generateContent`, or `…:streamGenerateContent?alt=sse` (SSE framing instead of the
    /// default streamed JSON array). The key is never put in this URL.
    public func endpointURL(stream: Bool) -> String {
        url(appending: "/models/\(model)" + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent"))
    }

    /// The Gemini API wire format (`GeminiWire`).
    public var wireFormat: HTTPWireFormat { HTTPWireFormat(GeminiWire(configuration: self)) }

    /// Labels the default logger: `hybrid.providers.gemini`.
    public static var loggerLabel: String { "hybrid.providers.gemini" }
}
