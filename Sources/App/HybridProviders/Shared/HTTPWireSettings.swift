package import HybridTransport

/// The HTTP settings a model's config entry does not carry: transfer limits, headers a gateway wants, and the few
/// knobs one provider's wire has (Chat Completions' output-limit field is the config's `maxTokensField`). Every model ``ModelFactory`` builds uses the defaults; a caller that builds an
/// ``HTTPLanguageModel`` itself (the llama.cpp runtime, tests against loopback servers) may change them.
package struct HTTPWireSettings: Sendable, Equatable {
    /// Transfer time limits; a request's deadline can only shorten them.
    var timeouts: HTTPTimeouts
    /// Sent with every request after the standard headers (`OpenAI-Organization`, `anthropic-beta`, a gateway's
    /// routing header).
    var extraHeaders: HTTPHeaders
    /// Responses (and whole streams) longer than this fail instead of growing memory without bound.
    var maxResponseBytes: Int
    /// Anthropic: the required `anthropic-version` header.
    var anthropicVersion: String
    /// Ollama: send `capabilities.contextWindow` as `options.num_ctx`, so Ollama's window is the one the router
    /// plans with (its own default is small and it truncates longer prompts silently).
    var ollamaSendsContextWindow: Bool
    /// Ollama: how long it keeps the model loaded (`"5m"`, `"-1"`); nil for its default.
    var ollamaKeepAlive: String?

    /// Settings with the defaults every built model gets unless a parameter says otherwise.
    package init(
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        extraHeaders: HTTPHeaders = HTTPHeaders(),
        maxResponseBytes: Int = 32 << 20,
        anthropicVersion: String = "2023-06-01",
        ollamaSendsContextWindow: Bool = true,
        ollamaKeepAlive: String? = nil
    ) {
        self.timeouts = timeouts
        self.extraHeaders = extraHeaders
        self.maxResponseBytes = maxResponseBytes
        self.anthropicVersion = anthropicVersion
        self.ollamaSendsContextWindow = ollamaSendsContextWindow
        self.ollamaKeepAlive = ollamaKeepAlive
    }
}
