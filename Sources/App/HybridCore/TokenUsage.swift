/// Tokens one request consumed, as the provider reported them or, when it reported none, estimated.
public struct TokenUsage: Sendable, Hashable, Codable {
    /// Input tokens of the prompt (instructions, messages and schema) as the provider counted them.
    public var promptTokens: Int
    /// Output tokens generated, reasoning tokens included where the provider counts them so.
    public var completionTokens: Int
    /// Prompt tokens served from the provider's prompt cache (billed at the cached price).
    public var cachedTokens: Int
    /// Tokens spent on hidden reasoning (counted inside `completionTokens` by OpenAI-style providers).
    public var reasoningTokens: Int
    /// Prompt tokens written to the provider's prompt cache by this request (Anthropic
    /// `cache_creation_input_tokens`, billed above the normal input price); counted inside `promptTokens`.
    public var cacheCreationTokens: Int
    /// True when the numbers come from `TokenEstimator` rather than the provider; reports mark them.
    public var isEstimated: Bool

    /// Creates usage; pass `isEstimated: true` for numbers not reported by the provider.
    public init(
        promptTokens: Int, completionTokens: Int, cachedTokens: Int = 0, reasoningTokens: Int = 0,
        cacheCreationTokens: Int = 0, isEstimated: Bool = false
    ) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.cachedTokens = cachedTokens
        self.reasoningTokens = reasoningTokens
        self.cacheCreationTokens = cacheCreationTokens
        self.isEstimated = isEstimated
    }

    private enum CodingKeys: String, CodingKey {
        case promptTokens, completionTokens, cachedTokens, reasoningTokens, cacheCreationTokens, isEstimated
    }

    /// Decodes usage; `cacheCreationTokens` may be absent (values stored before it existed) and reads as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        promptTokens = try container.decode(Int.self, forKey: .promptTokens)
        completionTokens = try container.decode(Int.self, forKey: .completionTokens)
        cachedTokens = try container.decode(Int.self, forKey: .cachedTokens)
        reasoningTokens = try container.decode(Int.self, forKey: .reasoningTokens)
        cacheCreationTokens = try container.decodeIfPresent(Int.self, forKey: .cacheCreationTokens) ?? 0
        isEstimated = try container.decode(Bool.self, forKey: .isEstimated)
    }

    /// Two calls' tokens together (a request's attempts summed); estimated when either was.
    package static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        TokenUsage(
            promptTokens: lhs.promptTokens + rhs.promptTokens, completionTokens: lhs.completionTokens + rhs.completionTokens,
            cachedTokens: lhs.cachedTokens + rhs.cachedTokens, reasoningTokens: lhs.reasoningTokens + rhs.reasoningTokens,
            cacheCreationTokens: lhs.cacheCreationTokens + rhs.cacheCreationTokens,
            isEstimated: lhs.isEstimated || rhs.isEstimated)
    }

    /// Usage estimated from text lengths, flagged as estimated.
    public static func estimated(prompt: String, completion: String) -> TokenUsage {
        TokenUsage(
            promptTokens: TokenEstimator.estimate(prompt),
            completionTokens: TokenEstimator.estimate(completion),
            isEstimated: true
        )
    }
}

/// Rough token counts for when a provider reports none.
///
/// About four characters per token for English under BPE tokenizers; good enough to size prompts
/// against a context window with margin, never to bill.
package enum TokenEstimator {
    /// Estimated tokens in `text` (at least 1 for non-empty text).
    package static func estimate(_ text: String) -> Int {
        estimate(scalars: scalarCount(text))
    }

    /// Estimated tokens in a text of `scalars` Unicode scalars: what a stream's pieces add up to without keeping
    /// their text.
    package static func estimate(scalars: Int) -> Int {
        scalars == 0 ? 0 : max(1, (scalars + 3) / 4)
    }

    /// Estimated tokens of everything a request sends: its instructions and every message. The router sizes
    /// prompts against context windows by it and the runner holds back prompts by it, so both agree.
    package static func estimate(_ request: GenerationRequest) -> Int {
        request.messages.reduce(estimate(request.instructions ?? "")) { $0 + estimate($1.content) }
    }

    /// `text.unicodeScalars.count`, counted as the UTF-8 bytes that start a scalar (every byte but `10xxxxxx`; a
    /// Swift string is always valid UTF-8) rather than by decoding each scalar, which was a fortieth of the
    /// router's own time per request.
    package static func scalarCount(_ text: String) -> Int {
        let counted = text.utf8.withContiguousStorageIfAvailable { bytes in ByteCount.count(bytes) { $0 & 0xC0 != 0x80 } }
        return counted ?? text.unicodeScalars.count
    }
}
