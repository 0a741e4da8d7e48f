/// Whether and which tool the model must call. Providers map it to their own field (OpenAI `tool_choice`,
/// Anthropic `tool_choice`, Gemini `functionCallingConfig.mode`); a provider without the option ignores it.
public enum ToolChoice: Sendable, Hashable {
    /// The model decides whether to call a tool (every provider's default when tools are offered).
    case auto
    /// The model must answer in text and call no tool.
    case none
    /// The model must call at least one tool, any of them.
    case required
    /// The model must call the tool with this name.
    case tool(String)

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
