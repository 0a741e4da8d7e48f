import HybridCore

/// One object of `/api/chat`: a whole response, or one NDJSON line of a stream. The final one (`done: true`)
/// carries `done_reason` and the counts; durations are nanoseconds.
struct OllamaChatResponse: Decodable {
    struct Message: Decodable {
        var content: String?
        var toolCalls: [ToolCallPayload]?
        enum CodingKeys: String, CodingKey {
            case content
            case toolCalls = "tool_calls"
        }
    }

    /// A call in `message.tool_calls`; arguments arrive as an object, and only recent servers send an `id`.
    struct ToolCallPayload: Decodable {
        struct Function: Decodable {
            var name: String?
            var arguments: JSONValue?
        }
        var id: String?
        var function: Function?
    }

    var model: String?
    var message: Message?
    var done: Bool?
    var doneReason: String?
    var promptEvalCount: Int?
    var evalCount: Int?
    var evalDuration: Int64?
    var totalDuration: Int64?
    /// Set instead of everything else when the server fails (`{"error": "…"}`), also mid-stream.
    var error: String?

    enum CodingKeys: String, CodingKey {
        case model, message, done, error
        case doneReason = "done_reason"
        case promptEvalCount = "prompt_eval_count"
        case evalCount = "eval_count"
        case evalDuration = "eval_duration"
        case totalDuration = "total_duration"
    }

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
