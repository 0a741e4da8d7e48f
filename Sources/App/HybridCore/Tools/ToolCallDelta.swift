/// A piece of a streamed tool call: providers stream calls as fragments keyed by the call's position.
///
/// The first fragment of a call usually carries its `id` and `name`; later ones only add argument text.
/// ``ToolCallAssembler`` joins them into ``ToolCall``s.
public struct ToolCallDelta: Sendable, Hashable {
    /// The call's position among the response's tool calls (OpenAI `tool_calls[].index`, Anthropic block index).
    public var index: Int
    /// The call's id, when this fragment carries it.
    public var id: String?
    /// The tool's name, when this fragment carries it.
    public var name: String?
    /// More argument text, appended in order (may be empty).
    public var argumentsFragment: String

    /// A fragment of call `index`.
    public init(index: Int, id: String? = nil, name: String? = nil, argumentsFragment: String = "") {
        self.index = index
        self.id = id
        self.name = name
        self.argumentsFragment = argumentsFragment
    }

    /// A whole call as the one fragment of call `index` (providers that send calls whole, non-streamed answers).
    public init(index: Int, call: ToolCall) {
        self.init(index: index, id: call.id, name: call.name, argumentsFragment: call.argumentsText)
    }
}
