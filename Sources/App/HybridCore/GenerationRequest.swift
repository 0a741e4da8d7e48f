/// What to generate: instructions, messages, options, an optional output schema, tools and a deadline.
public struct GenerationRequest: Sendable, Hashable {
    /// System instructions (the "session instructions" of Foundation Models).
    public var instructions: String?
    /// The conversation, oldest first; the last is usually the user's input.
    public var messages: [ChatMessage]
    /// Sampling and length settings; the default leaves every provider default in place.
    public var options: GenerationOptions
    /// When set, the model is asked for JSON matching this schema (subset described by `JSONSchema`).
    public var responseSchema: JSONValue?
    /// Name given to the schema where a provider wants one (OpenAI `json_schema.name`, Anthropic tool name).
    public var responseSchemaName: String
    /// The instant by which the caller needs an answer; providers turn it into a transfer timeout.
    public var deadline: ContinuousClock.Instant?
    /// Tools the model may call; empty offers none. Calls come back in ``GenerationResponse/toolCalls``.
    public var tools: [ToolDefinition]
    /// Whether and which tool the model must call; nil leaves the provider's default (`auto` when tools are offered).
    public var toolChoice: ToolChoice?

    /// Creates a request; only `messages` is required.
    public init(
        instructions: String? = nil,
        messages: [ChatMessage],
        options: GenerationOptions = GenerationOptions(),
        responseSchema: JSONValue? = nil,
        responseSchemaName: String = "response",
        deadline: ContinuousClock.Instant? = nil,
        tools: [ToolDefinition] = [],
        toolChoice: ToolChoice? = nil
    ) {
        self.instructions = instructions
        self.messages = messages
        self.options = options
        self.responseSchema = responseSchema
        self.responseSchemaName = responseSchemaName
        self.deadline = deadline
        self.tools = tools
        self.toolChoice = toolChoice
    }

    /// A single user prompt with optional instructions.
    public init(prompt: String, instructions: String? = nil, options: GenerationOptions = GenerationOptions()) {
        self.init(instructions: instructions, messages: [.user(prompt)], options: options)
    }

    /// Time left before the deadline, or nil when there is none. Never negative.
    public func remainingTime(now: ContinuousClock.Instant = .now) -> Duration? {
        guard let deadline else { return nil }
        return max(.zero, deadline - now)
    }
}
