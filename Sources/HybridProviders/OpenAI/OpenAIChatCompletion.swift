/// A non-streaming chat completion (`object: "chat.completion"`), reduced to the fields the adapter reads.
struct OpenAIChatCompletion: Decodable {
    struct Choice: Decodable {
        struct Message: Decodable {
            var content: String?
            /// Set by OpenAI when the model refused (Structured Outputs refusals); null otherwise.
            var refusal: String?
            var toolCalls: [OpenAIToolCallFragment]?
            enum CodingKeys: String, CodingKey {
                case content, refusal
                case toolCalls = "tool_calls"
            }
        }
        var message: Message?
        var finishReason: String?
        enum CodingKeys: String, CodingKey {
            case message
            case finishReason = "finish_reason"
        }
    }

    var model: String?
    var choices: [Choice]
    var usage: OpenAIUsage?
    /// llama.cpp only.
    var timings: LlamaCppTimings?
}
