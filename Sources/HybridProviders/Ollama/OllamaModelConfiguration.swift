public import HybridCore
public import HybridTransport

/// Everything that identifies one model served by Ollama's native API.
public struct OllamaModelConfiguration: HTTPModelConfiguration {
    /// Stable id (`ollama-llama3.2`).
    public var id: String
    /// Human-readable name for listings.
    public var displayName: String
    /// Where the model runs: on the device by default (Ollama on loopback); `.privateCloud` for a shared server.
    public var tier: ModelTier
    /// The server root, `http://127.0.0.1:11434`; `/api/chat` is appended.
    public var baseURL: String
    /// The Ollama model name (`llama3.2:3b`).
    public var model: String
    /// Name of the environment variable holding a bearer token, for servers behind an authenticating proxy;
    /// nil (the default) for a plain Ollama, which has no auth.
    public var apiKeyVariable: String?
    /// What the model can do. `contextWindow` is sent as `options.num_ctx` (see `sendsContextWindow`) and is
    /// the window the truncation check compares against.
    public var capabilities: ModelCapabilities
    /// Transfer time limits; a request's deadline can only shorten `total`. Loading a model on first use can
    /// take many seconds, so leave `firstByte` unset or generous.
    public var timeouts: HTTPTimeouts
    /// Send `capabilities.contextWindow` as `options.num_ctx`, so Ollama's window is the one the router plans
    /// with (Ollama's own default is small and it truncates longer prompts silently). Changing `num_ctx`
    /// reloads the model once.
    public var sendsContextWindow: Bool
    /// `keep_alive` (`"5m"`, `"-1"`), how long Ollama keeps the model loaded after a request; nil for its default.
    public var keepAlive: String?
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    public var maxResponseBytes: Int

    /// Creates a configuration; `displayName` defaults to `id`.
    public init(
        id: String,
        displayName: String? = nil,
        tier: ModelTier = .onDevice,
        baseURL: String = "http://127.0.0.1:11434",
        model: String,
        apiKeyVariable: String? = nil,
        capabilities: ModelCapabilities,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        sendsContextWindow: Bool = true,
        keepAlive: String? = nil,
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
        self.sendsContextWindow = sendsContextWindow
        self.keepAlive = keepAlive
        self.maxResponseBytes = maxResponseBytes
    }

    /// The native chat endpoint under `baseURL`.
    public var chatURL: String { url(appending: "/api/chat") }

    /// Ollama's native chat wire format (`OllamaWire`).
    public var wireFormat: HTTPWireFormat { HTTPWireFormat(OllamaWire(configuration: self)) }

    /// Labels the default logger: `hybrid.providers.ollama`.
    public static var loggerLabel: String { "hybrid.providers.ollama" }
}
