/// Whether and which tool the model must call. Providers map it to their own field (OpenAI `tool_choice`,
/// Anthropic `tool_choice`, Gemini `functionCallingConfig.mode`); a provider without the option ignores it.
///
/// Written in JSON as `"auto"`, `"none"`, `"required"` or `{"tool": "name"}`.
public enum ToolChoice: Sendable, Hashable, Codable {
    /// The model decides whether to call a tool (every provider's default when tools are offered).
    case auto
    /// The model must answer in text and call no tool.
    case none
    /// The model must call at least one tool, any of them.
    case required
    /// The model must call the tool with this name.
    case tool(String)

    private enum CodingKeys: String, CodingKey {
        case tool
    }

    /// Decodes the written form; anything else is a data-corruption error naming the accepted forms.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let word = try? single.decode(String.self) {
            switch word {
            case "auto": self = .auto
            case "none": self = .none
            case "required": self = .required
            default:
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: "tool choice \"\(word)\" is not auto, none, required or {\"tool\": name}")
            }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .tool(try container.decode(String.self, forKey: .tool))
    }

    /// Encodes the written form.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .tool(let name):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .tool)
        case .auto, .none, .required:
            var single = encoder.singleValueContainer()
            try single.encode(wordForm)
        }
    }

    /// `auto`, `none` or `required`; for a named tool, the tool's name.
    var wordForm: String {
        switch self {
        case .auto: "auto"
        case .none: "none"
        case .required: "required"
        case .tool(let name): name
        }
    }
}
