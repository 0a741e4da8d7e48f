import HybridCore

/// What a wire decoder has learned about one response so far; the engine turns it into a `GenerationResponse`.
struct WireResult: Sendable {
    /// All text so far (for structured output: the JSON text).
    var text = ""
    /// Usage as the provider reported it; nil makes the engine estimate it (flagged).
    var usage: TokenUsage?
    var finishReason: FinishReason?
    /// The model name the provider reported.
    var providerModel: String?
    /// Decode speed from the provider's own timings (Ollama `eval_count / eval_duration`).
    var decodeTokensPerSecond: Double?
    /// The server's prompt-processing and generation times (llama.cpp `timings`), so queueing shows.
    var serverPromptTime: Duration?
    var serverGenerationTime: Duration?
    /// The provider's terminal marker arrived (`message_stop`, Ollama `done: true`, a Gemini `finishReason`).
    var complete = false
    /// The tool calls so far, joined from their fragments.
    private(set) var toolCalls = ToolCallAssembler()
    /// Fragments the engine has not yet passed to a stream's consumer.
    var undeliveredToolCallDeltas: [ToolCallDelta] = []

    /// Records a fragment of a tool call (or a whole call in one fragment).
    mutating func addToolCall(_ delta: ToolCallDelta) {
        toolCalls.add(delta)
        undeliveredToolCallDeltas.append(delta)
    }

    /// Records a complete call as one fragment at `index`.
    mutating func addToolCall(_ call: ToolCall, index: Int) {
        addToolCall(ToolCallDelta(index: index, call: call))
    }
}
