/// A finished generation: text, parsed JSON when a schema was asked for, tool calls, who served it, usage and timing.
public struct GenerationResponse: Sendable, Equatable {
    /// The generated text as the model produced it (for schema requests, the raw JSON text).
    public var text: String
    /// The text parsed as JSON when the request had a `responseSchema` and the text parsed; nil otherwise.
    public var structured: JSONValue?
    /// The configured model that actually answered (after any router fallback).
    public var servedBy: ModelIdentity
    /// The provider's model name as it reported it (may differ from the configured id).
    public var providerModel: String?
    /// Tokens consumed; `usage.isEstimated` is true when the provider reported none.
    public var usage: TokenUsage
    /// Time to first token, total time and decode speed.
    public var timing: GenerationTiming
    /// Why generation stopped (e.g. end of turn or the output token limit).
    public var finishReason: FinishReason
    /// True when this was the first request to a freshly started local model, which pays for warming caches;
    /// reports show such results apart from steady-state latency.
    public var coldStart: Bool
    /// The tools the model called, in order (finish reason `.toolCall`); empty when it answered in text.
    /// Arguments are unchecked here: ``ToolCallCheck`` validates them against the request's tools.
    public var toolCalls: [ToolCall]

    /// Creates a response; providers build these, tests build them directly.
    public init(
        text: String,
        structured: JSONValue? = nil,
        servedBy: ModelIdentity,
        providerModel: String? = nil,
        usage: TokenUsage,
        timing: GenerationTiming,
        finishReason: FinishReason,
        coldStart: Bool = false,
        toolCalls: [ToolCall] = []
    ) {
        self.text = text
        self.structured = structured
        self.servedBy = servedBy
        self.providerModel = providerModel
        self.usage = usage
        self.timing = timing
        self.finishReason = finishReason
        self.coldStart = coldStart
        self.toolCalls = toolCalls
    }
}

/// Why generation stopped.
public enum FinishReason: Sendable, Hashable, Codable {
    /// The model ended its answer (or hit a stop sequence).
    case stop
    /// The output-token limit cut the answer off.
    case length
    /// A safety filter or guardrail stopped it.
    case contentFilter
    /// The model called a tool (see `toolCalls`; Anthropic structured output arrives this way too).
    case toolCall
    /// Anything the provider reported that has no case here, verbatim.
    case other(String)
}
