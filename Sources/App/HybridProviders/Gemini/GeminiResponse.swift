import HybridCore

/// One `GenerateContentResponse`: the whole answer of `generateContent`, or one chunk of a stream. Read straight
/// from bytes through its member tables (no `Codable`); every member is optional, `null` counts as missing, and
/// unknown members are skipped. `error` is there so an error object sent in place of an answer is recognised
/// without reading the body twice.
struct GeminiResponse: JSONMemberObject {
    struct Part: JSONMemberObject {
        var text: String?
        /// True for thought summaries of thinking models; never part of the answer.
        var thought: Bool?
        var functionCall: FunctionCall?

        static let jsonMembers = JSONMembers<Part>([
            .member("text", \.text), .member("thought", \.thought), .member("functionCall", \.functionCall),
        ])
        static var jsonPlaceholder: Part { Part() }
    }

    /// A call the model made; Gemini sends each whole (never in fragments) and `id` only on some models.
    struct FunctionCall: JSONMemberObject {
        var id: String?
        var name: String?
        var args: JSONValue?

        static let jsonMembers = JSONMembers<FunctionCall>([.member("id", \.id), .member("name", \.name), .member("args", \.args)])
        static var jsonPlaceholder: FunctionCall { FunctionCall() }
    }

    struct Content: JSONMemberObject {
        var parts: [Part]?

        static let jsonMembers = JSONMembers<Content>([.member("parts", \.parts)])
        static var jsonPlaceholder: Content { Content() }
    }

    struct Candidate: JSONMemberObject {
        var content: Content?
        var finishReason: String?

        static let jsonMembers = JSONMembers<Candidate>([.member("content", \.content), .member("finishReason", \.finishReason)])
        static var jsonPlaceholder: Candidate { Candidate() }
    }

    struct PromptFeedback: JSONMemberObject {
        var blockReason: String?

        static let jsonMembers = JSONMembers<PromptFeedback>([.member("blockReason", \.blockReason)])
        static var jsonPlaceholder: PromptFeedback { PromptFeedback() }
    }

    /// Token counts; in a stream every chunk may carry them and the last chunk has the totals.
    struct UsageMetadata: JSONMemberObject, Equatable {
        var promptTokenCount: Int?
        var candidatesTokenCount: Int?
        var totalTokenCount: Int?
        var cachedContentTokenCount: Int?
        var thoughtsTokenCount: Int?

        static let jsonMembers = JSONMembers<UsageMetadata>([
            .member("promptTokenCount", \.promptTokenCount), .member("candidatesTokenCount", \.candidatesTokenCount),
            .member("totalTokenCount", \.totalTokenCount), .member("cachedContentTokenCount", \.cachedContentTokenCount),
            .member("thoughtsTokenCount", \.thoughtsTokenCount),
        ])
        static var jsonPlaceholder: UsageMetadata { UsageMetadata() }

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
    /// The Google error object, when the server sent one instead of an answer.
    var error: JSONValue?

    static let jsonMembers = JSONMembers<GeminiResponse>([
        .member("candidates", \.candidates), .member("promptFeedback", \.promptFeedback),
        .member("usageMetadata", \.usageMetadata), .member("modelVersion", \.modelVersion), .member("error", \.error),
    ])
    static var jsonPlaceholder: GeminiResponse { GeminiResponse() }
}
