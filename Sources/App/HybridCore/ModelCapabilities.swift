/// What a model can do, as declared by its configuration or adapter.
public struct ModelCapabilities: Sendable, Equatable, Codable {
    /// The model streams tokens as they are generated.
    public var streaming: Bool
    /// The model can be constrained to a JSON schema (response_format, forced tool call, responseSchema…).
    public var structuredOutput: Bool
    /// Prompt plus completion tokens the model accepts; the router uses it to skip models a prompt does not fit.
    public var contextWindow: Int
    /// The most tokens one response may have, when the provider caps it below the context window.
    public var maxOutputTokens: Int?

    /// Creates capabilities; `contextWindow` is in tokens, prompt and completion together.
    public init(streaming: Bool = true, structuredOutput: Bool = false, contextWindow: Int, maxOutputTokens: Int? = nil) {
        self.streaming = streaming
        self.structuredOutput = structuredOutput
        self.contextWindow = contextWindow
        self.maxOutputTokens = maxOutputTokens
    }
}
