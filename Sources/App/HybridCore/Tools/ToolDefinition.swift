/// A tool the model may call: a name, what it does, and a JSON Schema for its arguments.
///
/// Every provider receives the same definition in its own wire format (OpenAI `tools[].function`, Anthropic
/// `tools[].input_schema`, Gemini `functionDeclarations`, Ollama `tools`, Foundation Models `Tool`), and the
/// arguments a model sends back are checked against `parameters` (``ToolCallCheck``).
public struct ToolDefinition: Sendable, Hashable, Codable {
    /// The name the model calls the tool by; providers want `[A-Za-z0-9_-]`, at most 64 characters.
    public var name: String
    /// What the tool does and when to call it: the model reads this to decide.
    public var description: String
    /// A JSON Schema object describing the arguments (the subset ``JSONSchema`` validates).
    public var parameters: JSONValue

    /// A tool; `parameters` defaults to an object with no properties (a tool without arguments).
    public init(name: String, description: String, parameters: JSONValue = ToolDefinition.noParameters) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }

    /// The schema of a tool that takes no arguments.
    @usableFromInline package static let noParameters: JSONValue = ["type": "object", "properties": [:]]
}
