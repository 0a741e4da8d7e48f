import HybridCore

/// One `data:` payload of a streamed chat completion (`object: "chat.completion.chunk"`); read by
/// ``OpenAIResponseReader``.
///
/// With `stream_options.include_usage` the last chunk before `[DONE]` has an empty `choices` array and
/// carries `usage`; llama.cpp also puts `timings` on its last chunk.
struct OpenAIChatCompletionChunk: JSONMemberObject, Equatable {
    struct Choice: JSONMemberObject, Equatable {
        var delta: OpenAIMessage?
        var finishReason: String?

        static let jsonMembers = JSONMembers<Choice>([.member("delta", \.delta), .member("finish_reason", \.finishReason)])
        static var jsonPlaceholder: Choice { Choice() }
    }

    var model: String?
    var choices: [Choice]?
    var usage: OpenAIUsage?
    var timings: LlamaCppTimings?
    /// True when the server reports a failure mid-stream (`data: {"error": {…}}`, as llama.cpp does); the body is
    /// then read as an ``OpenAIErrorBody``.
    var hasError = false

    static let jsonMembers = JSONMembers<OpenAIChatCompletionChunk>([
        .member("model", \.model), .member("choices", \.choices), .member("usage", \.usage), .member("timings", \.timings),
        .member("error", get: { $0.hasError ? OpenAIPresence() : nil }, set: { $0.hasError = $1 != nil }),
    ])
    static var jsonPlaceholder: OpenAIChatCompletionChunk { OpenAIChatCompletionChunk() }
}
