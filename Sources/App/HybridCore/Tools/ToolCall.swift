/// A model's request to run one tool: the provider's call id, the tool's name and the arguments.
///
/// The arguments are kept verbatim (`argumentsText`) because a model may send text that is not JSON; `arguments`
/// holds the parsed value when it parses. Whether they fit the tool's schema is an output check
/// (``ToolCallCheck``), never a decoding error.
public struct ToolCall: Sendable, Hashable, Codable {
    /// The provider's id for the call, echoed back in the tool-result message (`toolCallID`).
    public var id: String
    /// The name of the tool the model called (it may name a tool that was never offered).
    public var name: String
    /// The arguments exactly as the model produced them.
    public var argumentsText: String
    /// `argumentsText` parsed as JSON, or nil when it does not parse.
    public private(set) var arguments: JSONValue?

    /// A call whose arguments arrived as text (OpenAI-compatible `function.arguments`, streamed fragments).
    public init(id: String, name: String, argumentsText: String) {
        self.id = id
        self.name = name
        self.argumentsText = argumentsText
        self.arguments = try? JSONValue(parsing: argumentsText)
    }

    /// A call whose arguments arrived as a JSON value (Anthropic `input`, Gemini `args`, Ollama `arguments`);
    /// the text is its compact canonical form.
    public init(id: String, name: String, arguments: JSONValue) {
        self.id = id
        self.name = name
        self.argumentsText = arguments.canonicalJSON
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, argumentsText
    }

    /// Decodes `id`, `name` and `argumentsText`, parsing the arguments again.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            argumentsText: try container.decode(String.self, forKey: .argumentsText))
    }

    /// Encodes `id`, `name` and the verbatim `argumentsText` (the parsed value follows from it).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(argumentsText, forKey: .argumentsText)
    }
}
