import HybridCore

/// One `GenerateContentResponse`: the whole answer of `generateContent`, or one chunk of a stream.
struct GeminiResponse: Decodable {
    struct Part: Decodable {
        var text: String?
        /// True for thought summaries of thinking models; never part of the answer.
        var thought: Bool?
        var functionCall: FunctionCall?
    }

    /// A call the model made; Gemini sends each whole (never in fragments) and `id` only on some models.
    struct FunctionCall: Decodable {
        var id: String?
        var name: String?
        var args: JSONValue?
    }

    struct Content: Decodable {
        var parts: [Part]?
    }

    struct Candidate: Decodable {
        var content: Content?
        var finishReason: String?
    }

    struct PromptFeedback: Decodable {
        var blockReason: String?
    }

    /// Token counts; in a stream every chunk may carry them and the last chunk has the totals.
    struct UsageMetadata: Decodable, Equatable {
        var promptTokenCount: Int?
        var candidatesTokenCount: Int?
        var totalTokenCount: Int?
        var cachedContentTokenCount: Int?
        var thoughtsTokenCount: Int?

        /// Core usage, or nil without a prompt count. Thinking tokens are counted apart by the API and added to
        /// the completion here, as OpenAI-style usage counts reasoning inside completion tokens.
        var tokenUsage: TokenUsage? {
            guard let promptTokenCount else { return nil }
            let thoughts = thoughtsTokenCount ?? 0
            return TokenUsage(
                promptTokens: promptTokenCount,
                completionTokens: (candidatesTokenCount ?? 0) + thoughts,
                cachedTokens: cachedContentTokenCount ?? 0,
                reasoningTokens: thoughts
            )
        }
    }

    var candidates: [Candidate]?
    var promptFeedback: PromptFeedback?
    var usageMetadata: UsageMetadata?
    var modelVersion: String?
}
