import HybridCore

/// The `usage` object of a chat completion (or of the final stream chunk with `include_usage`).
struct OpenAIUsage: Decodable, Equatable {
    struct PromptDetails: Decodable, Equatable {
        var cachedTokens: Int?
        enum CodingKeys: String, CodingKey { case cachedTokens = "cached_tokens" }
    }

    struct CompletionDetails: Decodable, Equatable {
        var reasoningTokens: Int?
        enum CodingKeys: String, CodingKey { case reasoningTokens = "reasoning_tokens" }
    }

    var promptTokens: Int?
    var completionTokens: Int?
    var promptTokensDetails: PromptDetails?
    var completionTokensDetails: CompletionDetails?

    enum CodingKeys: String, CodingKey {
        case promptTokens = "prompt_tokens"
        case completionTokens = "completion_tokens"
        case promptTokensDetails = "prompt_tokens_details"
        case completionTokensDetails = "completion_tokens_details"
    }

    /// Core usage, or nil when the server sent the object without the two counts.
    var tokenUsage: TokenUsage? {
        guard let promptTokens, let completionTokens else { return nil }
        return TokenUsage(
            promptTokens: promptTokens,
            completionTokens: completionTokens,
            cachedTokens: promptTokensDetails?.cachedTokens ?? 0,
            reasoningTokens: completionTokensDetails?.reasoningTokens ?? 0
        )
    }
}
