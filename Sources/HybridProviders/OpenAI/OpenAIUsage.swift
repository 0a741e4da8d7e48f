import HybridCore

/// The `usage` object of a chat completion (or of the final stream chunk with `include_usage`).
struct OpenAIUsage: Equatable {
    struct PromptDetails: Equatable {
        var cachedTokens: Int?
    }

    struct CompletionDetails: Equatable {
        var reasoningTokens: Int?
    }

    var promptTokens: Int?
    var completionTokens: Int?
    var promptTokensDetails: PromptDetails?
    var completionTokensDetails: CompletionDetails?

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
