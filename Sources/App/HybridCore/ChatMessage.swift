/// One turn of a conversation: user text, an assistant answer (text and/or tool calls), or a tool's result.
public struct ChatMessage: Sendable, Hashable, Codable {
    /// Who speaks. System instructions go in `GenerationRequest.instructions`, not here.
    ///
    /// A struct rather than an enum so that a role added later does not break callers' exhaustive switches;
    /// `switch` over the static members works with a `default`.
    public struct Role: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The written form: `user`, `assistant` or `tool`.
        public let rawValue: String

        /// The role written as `rawValue`, or nil for a role HybridAI does not know.
        public init?(rawValue: String) {
            guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }

        private init(known: String) { rawValue = known }

        /// The person using the app.
        public static let user = Role(known: "user")
        /// The model (its answers and its tool calls).
        public static let assistant = Role(known: "assistant")
        /// A tool's result, sent back after the model called it.
        public static let tool = Role(known: "tool")
        /// Every role, in written form order.
        static let allCases: [Role] = [.user, .assistant, .tool]

        public var description: String { rawValue }
    }

    /// Who wrote this turn.
    public var role: Role
    /// The turn's text, sent verbatim: for a tool turn, the tool's result.
    public var content: String
    /// The tools an assistant turn called (empty for other turns), in order.
    public var toolCalls: [ToolCall]
    /// For a tool turn, the id of the call it answers (``ToolCall/id``).
    public var toolCallID: String?
    /// For a tool turn, the name of the tool that ran (Gemini and Ollama match results by name).
    public var toolName: String?

    /// Creates a turn; `.user(_:)`, `.assistant(_:toolCalls:)` and `.toolResult(for:content:)` are shorter.
    public init(
        role: Role, content: String, toolCalls: [ToolCall] = [], toolCallID: String? = nil, toolName: String? = nil
    ) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
        self.toolName = toolName
    }

    /// A user turn.
    public static func user(_ content: String) -> ChatMessage { ChatMessage(role: .user, content: content) }
    /// An assistant turn (for few-shot examples or history); with `toolCalls`, one that called tools, `content`
    /// being any text the model wrote beside the calls.
    public static func assistant(_ content: String = "", toolCalls: [ToolCall] = []) -> ChatMessage {
        ChatMessage(role: .assistant, content: content, toolCalls: toolCalls)
    }
    /// The result of running `call`: `content` is what the tool returned, as text (usually JSON).
    public static func toolResult(for call: ToolCall, content: String) -> ChatMessage {
        toolResult(callID: call.id, name: call.name, content: content)
    }
    /// The result of the call with id `callID` to the tool `name` (a transcript read back from storage).
    package static func toolResult(callID: String, name: String, content: String) -> ChatMessage {
        ChatMessage(role: .tool, content: content, toolCallID: callID, toolName: name)
    }

    private enum CodingKeys: String, CodingKey {
        case role, content, toolCalls, toolCallID, toolName
    }

    /// Decodes a turn; `toolCalls`, `toolCallID` and `toolName` may be absent (plain text turns).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            role: try container.decode(Role.self, forKey: .role),
            content: try container.decodeIfPresent(String.self, forKey: .content) ?? "",
            toolCalls: try container.decodeIfPresent([ToolCall].self, forKey: .toolCalls) ?? [],
            toolCallID: try container.decodeIfPresent(String.self, forKey: .toolCallID),
            toolName: try container.decodeIfPresent(String.self, forKey: .toolName))
    }

    /// Encodes a turn, leaving out the tool fields it does not use.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(role, forKey: .role)
        try container.encode(content, forKey: .content)
        if !toolCalls.isEmpty { try container.encode(toolCalls, forKey: .toolCalls) }
        try container.encodeIfPresent(toolCallID, forKey: .toolCallID)
        try container.encodeIfPresent(toolName, forKey: .toolName)
    }
}
