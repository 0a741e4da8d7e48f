import HybridCore

/// One `data:` payload of a streamed chat completion (`object: "chat.completion.chunk"`).
///
/// With `stream_options.include_usage` the last chunk before `[DONE]` has an empty `choices` array and
/// carries `usage`; llama.cpp also puts `timings` on its last chunk.
struct OpenAIChatCompletionChunk: Decodable {
    struct Choice: Decodable {
        struct Delta: Decodable {
            var content: String?
            var refusal: String?
            var toolCalls: [OpenAIToolCallFragment]?
            enum CodingKeys: String, CodingKey {
                case content, refusal
                case toolCalls = "tool_calls"
            }
        }
        var delta: Delta?
        var finishReason: String?
        enum CodingKeys: String, CodingKey {
            case delta
            case finishReason = "finish_reason"
        }
    }

    var model: String?
    var choices: [Choice]?
    var usage: OpenAIUsage?
    var timings: LlamaCppTimings?
    /// Present when the server reports a failure mid-stream (`data: {"error": {…}}`, as llama.cpp does).
    var error: JSONValue?
}
