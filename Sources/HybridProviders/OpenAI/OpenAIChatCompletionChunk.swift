/// One `data:` payload of a streamed chat completion (`object: "chat.completion.chunk"`); read by
/// ``OpenAIResponseReader``.
///
/// With `stream_options.include_usage` the last chunk before `[DONE]` has an empty `choices` array and
/// carries `usage`; llama.cpp also puts `timings` on its last chunk.
struct OpenAIChatCompletionChunk: Equatable {
    struct Choice: Equatable {
        var delta: OpenAIMessage?
        var finishReason: String?
    }

    var model: String?
    var choices: [Choice]?
    var usage: OpenAIUsage?
    var timings: LlamaCppTimings?
    /// True when the server reports a failure mid-stream (`data: {"error": {…}}`, as llama.cpp does); the body is
    /// then read as an ``OpenAIErrorBody``.
    var hasError = false
}
