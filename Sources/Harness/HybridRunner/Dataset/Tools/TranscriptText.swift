public import HybridCore

/// Plain-text renderings of turns and tool calls, for what the store keeps as a result's prompt and output and
/// what reports and the viewer show: one line per turn, a call as `→ name(arguments)`.
public enum TranscriptText {
    /// `text`, then one `→ name(arguments)` line per call (the arguments verbatim, as the model sent them).
    public static func output(text: String, toolCalls: [ToolCall]) -> String {
        let calls = toolCalls.map { "→ \($0.name)(\($0.argumentsText))" }
        return ([text].filter { !$0.isEmpty } + calls).joined(separator: "\n")
    }

    /// Every turn as `role: text`, tool results as `tool name: result`.
    public static func transcript(_ messages: [ChatMessage]) -> String {
        messages.map { message in
            switch message.role {
            case .tool: "tool \(message.toolName ?? "?"): \(message.content)"
            default: "\(message.role.rawValue): " + output(text: message.content, toolCalls: message.toolCalls)
            }
        }.joined(separator: "\n")
    }

    /// The calls as JSON, stored as a result's parsed output so they can be read back exactly:
    /// `{"tool_calls": [{"id", "name", "arguments_text", "arguments"}]}`, `arguments_text` verbatim and
    /// `arguments` parsed (absent when the text is not JSON).
    public static func parsedOutput(_ toolCalls: [ToolCall]) -> JSONValue {
        .object(["tool_calls": .array(toolCalls.map { call in
            var members: [String: JSONValue] = [
                "id": .string(call.id), "name": .string(call.name), "arguments_text": .string(call.argumentsText),
            ]
            if let arguments = call.arguments { members["arguments"] = arguments }
            return .object(members)
        })])
    }

    /// The calls stored by ``parsedOutput(_:)``, read back; empty when there are none.
    public static func toolCalls(fromParsedOutput value: JSONValue?) -> [ToolCall] {
        guard let items = value?["tool_calls"]?.arrayValue else { return [] }
        return items.compactMap { item in
            guard let id = item["id"]?.stringValue, let name = item["name"]?.stringValue else { return nil }
            if let text = item["arguments_text"]?.stringValue { return ToolCall(id: id, name: name, argumentsText: text) }
            return ToolCall(id: id, name: name, arguments: item["arguments"] ?? .object([:]))
        }
    }
}
