/// A non-streaming chat completion (`object: "chat.completion"`), reduced to the fields the adapter reads; read
/// by ``OpenAIResponseReader``.
struct OpenAIChatCompletion: Equatable {
    struct Choice: Equatable {
        var message: OpenAIMessage?
        var finishReason: String?
    }

    var model: String?
    var choices: [Choice]
    var usage: OpenAIUsage?
    /// llama.cpp only.
    var timings: LlamaCppTimings?
}

/// A choice's `message` in an answer, or its `delta` in a stream chunk: the same members, whole or in pieces.
struct OpenAIMessage: Equatable {
    var content: String?
    /// Set by OpenAI when the model refused (Structured Outputs refusals); null otherwise.
    var refusal: String?
    var toolCalls: [OpenAIToolCallFragment]?
}
