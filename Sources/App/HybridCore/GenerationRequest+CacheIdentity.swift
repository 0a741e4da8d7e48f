extension GenerationRequest {
    /// Text naming everything in the request that can change what a model answers, for content-derived cache keys.
    ///
    /// The deadline is left out: it differs on every call and never changes the answer. Fields are length-prefixed,
    /// so no two different requests serialize alike; the schema is canonical JSON (sorted keys).
    package var cacheIdentity: String {
        var text = ""
        func field(_ value: String) {
            text += String(value.utf8.count)
            text += ":"
            text += value
        }
        field(instructions.map { "i" + $0 } ?? "-")
        for message in messages {
            field(message.role.rawValue + ":" + message.content)
            // Only turns that carry tool parts add a field ("+" never starts a role), so plain requests keep the
            // identities already stored in caches.
            if !message.toolCalls.isEmpty || message.toolCallID != nil || message.toolName != nil {
                field("+" + Self.toolPartsIdentity(message))
            }
        }
        field("t=\(options.temperature.map { String($0) } ?? "-") m=\(options.maxOutputTokens.map { String($0) } ?? "-") "
            + "s=\(options.sampling.map { String(describing: $0) } ?? "-") seed=\(options.seed.map { String($0) } ?? "-")")
        field(responseSchema?.canonicalJSON ?? "")
        field(responseSchemaName)
        if !tools.isEmpty || toolChoice != nil {
            field("tools:" + Self.toolsIdentity(tools, toolChoice))
        }
        return text
    }

    private static func toolPartsIdentity(_ message: ChatMessage) -> String {
        let calls: [JSONValue] = message.toolCalls.map {
            ["id": .string($0.id), "name": .string($0.name), "arguments": .string($0.argumentsText)]
        }
        let parts: JSONValue = [
            "calls": .array(calls), "callID": message.toolCallID.map(JSONValue.string) ?? .null,
            "name": message.toolName.map(JSONValue.string) ?? .null,
        ]
        return parts.canonicalJSON
    }

    private static func toolsIdentity(_ tools: [ToolDefinition], _ choice: ToolChoice?) -> String {
        let definitions: [JSONValue] = tools.map {
            ["name": .string($0.name), "description": .string($0.description), "parameters": $0.parameters]
        }
        let choiceValue: JSONValue = switch choice {
        case nil: .null
        case .tool(let name)?: ["tool": .string(name)]
        case let other?: .string(other.wordForm)
        }
        return JSONValue.object(["tools": .array(definitions), "choice": choiceValue]).canonicalJSON
    }
}
