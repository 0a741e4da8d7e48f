import HybridCore

/// One object of `/api/chat`: a whole response, or one NDJSON line of a stream. The final one (`done: true`)
/// carries `done_reason` and the counts; durations are nanoseconds. Read straight from bytes through its member
/// table (no `Codable`); every member is optional, `null` counts as missing, and unknown members are skipped.
struct OllamaChatResponse: JSONMemberObject {
    struct Message: JSONMemberObject {
        var content: String?
        var toolCalls: [ToolCallPayload]?

        static let jsonMembers = JSONMembers<Message>([.member("content", \.content), .member("tool_calls", \.toolCalls)])
        static var jsonPlaceholder: Message { Message() }
    }

    /// A call in `message.tool_calls`; arguments arrive as an object, and only recent servers send an `id`.
    struct ToolCallPayload: JSONMemberObject {
        struct Function: JSONMemberObject {
            var name: String?
            var arguments: JSONValue?

            static let jsonMembers = JSONMembers<Function>([.member("name", \.name), .member("arguments", \.arguments)])
            static var jsonPlaceholder: Function { Function() }
        }

        var id: String?
        var function: Function?

        static let jsonMembers = JSONMembers<ToolCallPayload>([.member("id", \.id), .member("function", \.function)])
        static var jsonPlaceholder: ToolCallPayload { ToolCallPayload() }
    }

    var model: String?
    var message: Message?
    var done: Bool?
    var doneReason: String?
    var promptEvalCount: Int?
    var evalCount: Int?
    var evalDuration: Int?
    var totalDuration: Int?
    /// Set instead of everything else when the server fails (`{"error": "…"}`), also mid-stream.
    var error: String?

    static let jsonMembers = JSONMembers<OllamaChatResponse>([
        .member("model", \.model), .member("message", \.message), .member("done", \.done),
        .member("done_reason", \.doneReason), .member("prompt_eval_count", \.promptEvalCount),
        .member("eval_count", \.evalCount), .member("eval_duration", \.evalDuration),
        .member("total_duration", \.totalDuration), .member("error", \.error),
    ])
    static var jsonPlaceholder: OllamaChatResponse { OllamaChatResponse() }

    /// Core usage, or nil when either count is missing.
    var tokenUsage: TokenUsage? {
        guard let promptEvalCount, let evalCount else { return nil }
        return TokenUsage(promptTokens: promptEvalCount, completionTokens: evalCount)
    }

    /// `eval_count / eval_duration`, in tokens per second.
    var decodeTokensPerSecond: Double? {
        guard let evalCount, let evalDuration, evalDuration > 0, evalCount > 0 else { return nil }
        return Double(evalCount) / (Double(evalDuration) / 1e9)
    }
}
