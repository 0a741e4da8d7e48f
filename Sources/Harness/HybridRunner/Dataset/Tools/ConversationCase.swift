public import HybridCore

/// The conversation part of a dataset case: earlier turns, the tools offered, and the tool calls expected next.
///
/// JSON (members of the case object):
/// - `messages`: the turns sent instead of the feature's rendered template, oldest first, ending with a user or
///   tool turn (the model speaks next). `{"role": "user", "content": "…"}`;
///   `{"role": "assistant", "content": "…", "tool_calls": [{"id": "c1", "name": "…", "arguments": {…}}]}`;
///   `{"role": "tool", "tool_call_id": "c1", "name": "…", "content": "…"}` (content may be any JSON, sent as text).
/// - `tools`: `[{"name", "description", "parameters": JSON Schema}]`, offered to the model.
/// - `expected_tool_calls`: see ``ExpectedToolCall``; `[]` expects an answer without a call.
public struct ConversationCase: Sendable, Hashable {
    /// The turns to send; empty when the feature's template renders the single user turn from `input`.
    public var messages: [ChatMessage]
    /// The tools offered.
    public var tools: [ToolDefinition]
    /// The calls the model should make next; nil when the case does not check tool calls.
    public var expectedToolCalls: [ExpectedToolCall]?

    /// A conversation case.
    public init(messages: [ChatMessage] = [], tools: [ToolDefinition] = [], expectedToolCalls: [ExpectedToolCall]? = nil) {
        self.messages = messages
        self.tools = tools
        self.expectedToolCalls = expectedToolCalls
    }

    /// The keys of a case object this type reads.
    static let keys: Set<String> = ["messages", "tools", "expected_tool_calls"]

    /// The conversation part of a case object, nil when it has none of ``keys``.
    static func parse(_ object: [String: JSONValue]) throws(DatasetFieldError) -> ConversationCase? {
        guard !keys.isDisjoint(with: object.keys) else { return nil }
        var parsed = ConversationCase()
        if let tools = object["tools"] { parsed.tools = try parseTools(tools, at: JSONPath.root.appending(key: "tools")) }
        if let messages = object["messages"] {
            parsed.messages = try parseMessages(messages, at: JSONPath.root.appending(key: "messages"))
        }
        if let expected = object["expected_tool_calls"] {
            let path = JSONPath.root.appending(key: "expected_tool_calls")
            let calls = try ExpectedToolCall.parseList(expected, at: path)
            let offered = Set(parsed.tools.map(\.name))
            for (index, call) in calls.enumerated() where !offered.contains(call.name) {
                throw DatasetFieldError(
                    path: path.appending(index: index).appending(key: "name"),
                    message: "\"\(call.name)\" is not one of the case's tools (\(offered.sorted().joined(separator: ", ")))")
            }
            parsed.expectedToolCalls = calls
        }
        return parsed
    }

    static func parseTools(_ value: JSONValue, at path: JSONPath) throws(DatasetFieldError) -> [ToolDefinition] {
        guard case .array(let items) = value else {
            throw DatasetFieldError(path: path, message: "must be an array of tools, got \(value.typeName)")
        }
        var tools: [ToolDefinition] = []
        for (index, item) in items.enumerated() {
            let at = path.appending(index: index)
            let members = try object(item, at: at, keys: ["name", "description", "parameters"])
            let name = try string(members["name"], at: at.appending(key: "name"))
            if tools.contains(where: { $0.name == name }) {
                throw DatasetFieldError(path: at.appending(key: "name"), message: "tool \"\(name)\" is defined twice")
            }
            let parameters = members["parameters"] ?? ToolDefinition.noParameters
            do {
                _ = try JSONSchema(parameters)
            } catch {
                throw DatasetFieldError(path: at.appending(key: "parameters"), message: "not a usable JSON Schema: \(error)")
            }
            let description = members["description"]?.stringValue ?? ""
            tools.append(ToolDefinition(name: name, description: description, parameters: parameters))
        }
        return tools
    }

    static func parseMessages(_ value: JSONValue, at path: JSONPath) throws(DatasetFieldError) -> [ChatMessage] {
        guard case .array(let items) = value, !items.isEmpty else {
            throw DatasetFieldError(path: path, message: "must be a non-empty array of turns, got \(value.typeName)")
        }
        var messages: [ChatMessage] = []
        var callIDs: Set<String> = []
        for (index, item) in items.enumerated() {
            let message = try parseMessage(item, at: path.appending(index: index), earlierCalls: callIDs)
            callIDs.formUnion(message.toolCalls.map(\.id))
            messages.append(message)
        }
        if messages.last?.role == .assistant {
            throw DatasetFieldError(
                path: path.appending(index: items.count - 1), message: "the last turn is the assistant's; end with a user or tool turn")
        }
        return messages
    }

    private static func parseMessage(_ value: JSONValue, at path: JSONPath, earlierCalls: Set<String>) throws(DatasetFieldError) -> ChatMessage {
        let members = try object(value, at: path, keys: ["role", "content", "tool_calls", "tool_call_id", "name"])
        let roleText = try string(members["role"], at: path.appending(key: "role"))
        guard let role = ChatMessage.Role(rawValue: roleText) else {
            throw DatasetFieldError(path: path.appending(key: "role"), message: "\"\(roleText)\" is not user, assistant or tool")
        }
        switch role {
        case .user:
            return .user(try string(members["content"], at: path.appending(key: "content"), allowEmpty: true))
        case .tool:
            let id = try string(members["tool_call_id"], at: path.appending(key: "tool_call_id"))
            guard earlierCalls.contains(id) else {
                throw DatasetFieldError(path: path.appending(key: "tool_call_id"), message: "\"\(id)\" answers no earlier assistant tool call")
            }
            let name = try string(members["name"], at: path.appending(key: "name"))
            let content: String =
                switch members["content"] {
                case .string(let text)?: text
                case let other?: other.canonicalJSON
                case nil: ""
                }
            return .toolResult(callID: id, name: name, content: content)
        default:
            var calls: [ToolCall] = []
            if let value = members["tool_calls"] { calls = try parseCalls(value, at: path.appending(key: "tool_calls")) }
            return ChatMessage(role: role, content: members["content"]?.stringValue ?? "", toolCalls: calls)
        }
    }

    private static func parseCalls(_ value: JSONValue, at path: JSONPath) throws(DatasetFieldError) -> [ToolCall] {
        guard case .array(let items) = value else {
            throw DatasetFieldError(path: path, message: "must be an array of calls, got \(value.typeName)")
        }
        var calls: [ToolCall] = []
        for (index, item) in items.enumerated() {
            let at = path.appending(index: index)
            let members = try object(item, at: at, keys: ["id", "name", "arguments"])
            let id = try string(members["id"], at: at.appending(key: "id"))
            let name = try string(members["name"], at: at.appending(key: "name"))
            calls.append(ToolCall(id: id, name: name, arguments: members["arguments"] ?? .object([:])))
        }
        return calls
    }

    private static func object(_ value: JSONValue, at path: JSONPath, keys: Set<String>) throws(DatasetFieldError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw DatasetFieldError(path: path, message: "must be an object, got \(value.typeName)")
        }
        if let unknown = Set(members.keys).subtracting(keys).sorted().first {
            throw DatasetFieldError(path: path.appending(key: unknown), message: "unknown key (allowed: \(keys.sorted().joined(separator: ", ")))")
        }
        return members
    }

    private static func string(_ value: JSONValue?, at path: JSONPath, allowEmpty: Bool = false) throws(DatasetFieldError) -> String {
        guard case .string(let text)? = value, allowEmpty || !text.isEmpty else {
            throw DatasetFieldError(path: path, message: value == nil ? "is missing" : "must be a non-empty string")
        }
        return text
    }
}
