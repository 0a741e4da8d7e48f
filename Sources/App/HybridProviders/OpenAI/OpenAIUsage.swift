import HybridCore

/// The `usage` object of a chat completion (or of the final stream chunk with `include_usage`).
struct OpenAIUsage: JSONMemberObject, Equatable {
    struct PromptDetails: JSONMemberObject, Equatable {
        var cachedTokens: Int?

        static let jsonMembers = JSONMembers<PromptDetails>([.count("cached_tokens", \.cachedTokens)])
        static var jsonPlaceholder: PromptDetails { PromptDetails() }
    }

    struct CompletionDetails: JSONMemberObject, Equatable {
        var reasoningTokens: Int?

        static let jsonMembers = JSONMembers<CompletionDetails>([.count("reasoning_tokens", \.reasoningTokens)])
        static var jsonPlaceholder: CompletionDetails { CompletionDetails() }
    }

    var promptTokens: Int?
    var completionTokens: Int?
    var promptTokensDetails: PromptDetails?
    var completionTokensDetails: CompletionDetails?

    static let jsonMembers = JSONMembers<OpenAIUsage>([
        .count("prompt_tokens", \.promptTokens), .count("completion_tokens", \.completionTokens),
        .member("prompt_tokens_details", \.promptTokensDetails), .member("completion_tokens_details", \.completionTokensDetails),
    ])
    static var jsonPlaceholder: OpenAIUsage { OpenAIUsage() }

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
