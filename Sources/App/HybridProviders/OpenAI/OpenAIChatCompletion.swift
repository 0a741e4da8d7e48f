import HybridCore

/// A non-streaming chat completion (`object: "chat.completion"`), reduced to the fields the adapter reads; read
/// by ``OpenAIResponseReader``.
struct OpenAIChatCompletion: JSONMemberObject, Equatable {
    struct Choice: JSONMemberObject, Equatable {
        var message: OpenAIMessage?
        var finishReason: String?

        static let jsonMembers = JSONMembers<Choice>([.member("message", \.message), .member("finish_reason", \.finishReason)])
        static var jsonPlaceholder: Choice { Choice() }
    }

    var model: String?
    /// Required: a body without it is not an answer.
    var choices: [Choice]
    var usage: OpenAIUsage?
    /// llama.cpp only.
    var timings: LlamaCppTimings?

    static let jsonMembers = JSONMembers<OpenAIChatCompletion>([
        .member("model", \.model), .member("choices", \.choices), .member("usage", \.usage), .member("timings", \.timings),
    ])
    static var jsonPlaceholder: OpenAIChatCompletion { OpenAIChatCompletion(choices: []) }
}

/// A choice's `message` in an answer, or its `delta` in a stream chunk: the same members, whole or in pieces.
struct OpenAIMessage: JSONMemberObject, Equatable {
    var content: String?
    /// Set by OpenAI when the model refused (Structured Outputs refusals); null otherwise.
    var refusal: String?
    var toolCalls: [OpenAIToolCallFragment]?

    static let jsonMembers = JSONMembers<OpenAIMessage>([
        .member("content", \.content), .member("refusal", \.refusal), .member("tool_calls", \.toolCalls),
    ])
    static var jsonPlaceholder: OpenAIMessage { OpenAIMessage() }
}
