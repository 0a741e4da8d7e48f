import HybridCore

extension HTTPModelConfiguration {
    /// Which API the model is behind, with the settings only that API has. A new HTTP provider is a case here
    /// and a `WireFormat` in its own folder.
    package enum Provider: Sendable, Hashable {
        /// Chat Completions: OpenAI, llama.cpp's `llama-server`, vLLM, Ollama's `/v1`; `/chat/completions` is
        /// appended to the base URL. `maxTokensParameter` is the body field that carries `maxOutputTokens`.
        case openAICompatible(maxTokensParameter: MaxTokensParameter = .maxTokens)
        /// The Anthropic Messages API; `/messages` is appended. `version` is the required `anthropic-version`
        /// header; `defaultMaxTokens` is sent as `max_tokens` when the request sets no `maxOutputTokens` (the API
        /// requires the field on every request).
        case anthropic(version: String = "2023-06-01", defaultMaxTokens: Int = 1024)
        /// The Gemini API (`…/models/{model}:generateContent`, `:streamGenerateContent?alt=sse`).
        case gemini
        /// Ollama's native `/api/chat` (NDJSON). `sendsContextWindow` sends `capabilities.contextWindow` as
        /// `options.num_ctx`, so Ollama's window is the one the router plans with (its own default is small and it
        /// truncates longer prompts silently); `keepAlive` (`"5m"`, `"-1"`) is how long Ollama keeps the model
        /// loaded, nil for its default.
        case ollama(sendsContextWindow: Bool = true, keepAlive: String? = nil)

        var defaultTier: ModelTier {
            if case .ollama = self { return .onDevice }
            return .thirdParty
        }

        var defaultBaseURL: String {
            switch self {
            case .openAICompatible: "https://api.openai.com/v1"
            case .anthropic: "https://api.anthropic.com/v1"
            case .gemini: "https://generativelanguage.googleapis.com/v1beta"
            case .ollama: "http://127.0.0.1:11434"
            }
        }

        var defaultAPIKeyVariable: String? {
            switch self {
            case .anthropic: "ANTHROPIC_API_KEY"
            case .gemini: "GEMINI_API_KEY"
            case .openAICompatible, .ollama: nil
            }
        }

        /// The label of the logger a model gets when its creator passes none.
        var loggerLabel: String {
            switch self {
            case .openAICompatible: "hybrid.providers.openai-compatible"
            case .anthropic: "hybrid.providers.anthropic"
            case .gemini: "hybrid.providers.gemini"
            case .ollama: "hybrid.providers.ollama"
            }
        }
    }

    /// The Chat Completions request field that limits output length.
    ///
    /// `max_tokens` is the default because llama.cpp, vLLM and Ollama all read it and OpenAI still accepts it for
    /// non-reasoning chat models. OpenAI deprecated it in favour of `max_completion_tokens` (which also bounds
    /// hidden reasoning tokens) and rejects `max_tokens` for o-series and newer reasoning models, so configure
    /// `.maxCompletionTokens` for those. Exactly one of the two fields is ever sent.
    package enum MaxTokensParameter: String, Sendable, Hashable, Codable {
        /// `max_tokens`: llama.cpp, vLLM, Ollama, older OpenAI chat models.
        case maxTokens = "max_tokens"
        /// `max_completion_tokens`: OpenAI reasoning models (o1, o3, gpt-5…).
        case maxCompletionTokens = "max_completion_tokens"
    }
}
