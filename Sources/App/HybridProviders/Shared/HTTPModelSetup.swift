import HybridConfig
import HybridCore
import HybridTransport

/// What an HTTP adapter is built from: the model's id, its config entry (kind, endpoint, tier, model name, key
/// variable, capabilities) and the wire settings the config does not carry. The entry's `kind` chose the wire format.
///
/// The API key is never here: `config.apiKeyEnv` names the environment variable that holds it.
struct HTTPModelSetup: Sendable {
    let id: String
    let config: ModelConfig
    let settings: HTTPWireSettings
    /// The config's capabilities in the type adapters and the router use (made once: read on every call).
    let capabilities: ModelCapabilities

    init(id: String, config: ModelConfig, settings: HTTPWireSettings) {
        self.id = id
        self.config = config
        self.settings = settings
        capabilities = config.modelCapabilities
    }

    var displayName: String { config.displayName ?? id }
    var tier: ModelTier { config.tier }
    /// The `model` field sent on the wire (`gpt-4o-mini`; llama.cpp serves its one model whatever this says).
    var model: String { config.model }
    /// Nil (or empty) when the endpoint needs no key; when set, a missing or empty variable makes the model unavailable.
    var apiKeyVariable: String? { config.apiKeyEnv }

    /// `max_tokens` when a request sets none (the Anthropic API requires the field on every request): the config's
    /// output limit, else 1,024.
    var defaultMaxTokens: Int { config.maxOutputTokens ?? 1024 }

    /// The API root (the config's, else the provider's public one) followed by `path`, without the doubled slash a
    /// configured trailing one would make.
    func url(appending path: String) -> String {
        var base = config.baseURL ?? config.kind.defaultBaseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }
}

extension ProviderKind {
    /// The public API root of a hosted provider, Ollama's usual local address, else OpenAI's.
    var defaultBaseURL: String {
        switch self {
        case .anthropic: "https://api.anthropic.com/v1"
        case .gemini: "https://generativelanguage.googleapis.com/v1beta"
        case .ollama: "http://127.0.0.1:11434"
        default: "https://api.openai.com/v1"
        }
    }

    /// The label of the logger a model gets when its creator passes none.
    var loggerLabel: String {
        switch self {
        case .anthropic: "hybrid.providers.anthropic"
        case .gemini: "hybrid.providers.gemini"
        case .ollama: "hybrid.providers.ollama"
        default: "hybrid.providers.openai-compatible"
        }
    }
}
