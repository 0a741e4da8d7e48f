import HybridCore

/// The `usage` object of a message, of `message_start` and of `message_delta`.
///
/// `input_tokens` excludes cached prompt tokens: those written to the cache are `cache_creation_input_tokens`,
/// those read from it `cache_read_input_tokens`. `output_tokens` in `message_delta` is cumulative.
struct AnthropicUsage: JSONMemberObject, Equatable {
    var inputTokens: Int?
    var outputTokens: Int?
    var cacheCreationInputTokens: Int?
    var cacheReadInputTokens: Int?

    static let jsonMembers = JSONMembers<AnthropicUsage>([
        .member("input_tokens", \.inputTokens), .member("output_tokens", \.outputTokens),
        .member("cache_creation_input_tokens", \.cacheCreationInputTokens),
        .member("cache_read_input_tokens", \.cacheReadInputTokens),
    ])
    static var jsonPlaceholder: AnthropicUsage { AnthropicUsage() }

    init(inputTokens: Int? = nil, outputTokens: Int? = nil, cacheCreationInputTokens: Int? = nil, cacheReadInputTokens: Int? = nil) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.cacheCreationInputTokens = cacheCreationInputTokens
        self.cacheReadInputTokens = cacheReadInputTokens
    }

    /// Fields present in `later` replace these (a later event's counts are the newer totals).
    mutating func merge(_ later: AnthropicUsage) {
        inputTokens = later.inputTokens ?? inputTokens
        outputTokens = later.outputTokens ?? outputTokens
        cacheCreationInputTokens = later.cacheCreationInputTokens ?? cacheCreationInputTokens
        cacheReadInputTokens = later.cacheReadInputTokens ?? cacheReadInputTokens
    }

    /// Core usage, or nil when input or output tokens are missing.
    var tokenUsage: TokenUsage? {
        guard let inputTokens, let outputTokens else { return nil }
        let creation = cacheCreationInputTokens ?? 0
        let read = cacheReadInputTokens ?? 0
        return TokenUsage(
            promptTokens: inputTokens + creation + read,
            completionTokens: outputTokens,
            cachedTokens: read,
            cacheCreationTokens: creation
        )
    }
}
