import HybridCore

/// The body of `POST /v1/messages`, built from a `GenerationRequest`.
///
/// Field names follow the Messages API reference; nil fields are omitted so the API applies its defaults.
struct AnthropicMessagesRequest: Encodable, Equatable {
    struct Message: Encodable, Equatable {
        var role: String
        var content: Content
    }

    /// A plain string for text turns; content blocks for turns with `tool_use` or `tool_result`.
    enum Content: Encodable, Equatable {
        case text(String)
        case blocks([Block])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .text(let text): try text.encode(to: encoder)
            case .blocks(let blocks): try blocks.encode(to: encoder)
            }
        }
    }

    /// A `text`, `tool_use` or `tool_result` content block.
    struct Block: Encodable, Equatable {
        var type: String
        var text: String?
        var id: String?
        var name: String?
        var input: JSONValue?
        var toolUseID: String?
        var content: String?
        enum CodingKeys: String, CodingKey {
            case type, text, id, name, input, content
            case toolUseID = "tool_use_id"
        }

        static func text(_ text: String) -> Block { Block(type: "text", text: text) }
        /// Anthropic wants `input` as an object: arguments that did not parse to one are sent as `{}`.
        static func toolUse(_ call: ToolCall) -> Block {
            Block(type: "tool_use", id: call.id, name: call.name, input: call.arguments?.objectValue.map(JSONValue.object) ?? [:])
        }
        static func toolResult(_ message: ChatMessage) -> Block {
            Block(type: "tool_result", toolUseID: message.toolCallID ?? "", content: message.content)
        }
    }

    struct Tool: Encodable, Equatable {
        var name: String
        var description: String
        var inputSchema: JSONValue
        enum CodingKeys: String, CodingKey {
            case name, description
            case inputSchema = "input_schema"
        }
    }

    /// `{"type": "auto" | "any" | "none"}` or `{"type": "tool", "name": …}`.
    struct ToolChoice: Encodable, Equatable {
        var type = "tool"
        var name: String?
    }

    var model: String
    var maxTokens: Int
    var system: String?
    var messages: [Message]
    var temperature: Double?
    var topP: Double?
    var stream: Bool?
    var tools: [Tool]?
    var toolChoice: ToolChoice?

    enum CodingKeys: String, CodingKey {
        case model, system, messages, temperature, stream, tools
        case maxTokens = "max_tokens"
        case topP = "top_p"
        case toolChoice = "tool_choice"
    }

    init(_ request: GenerationRequest, configuration: HTTPModelConfiguration, stream: Bool) {
        model = configuration.model
        var limit = request.options.maxOutputTokens ?? configuration.defaultMaxTokens
        if let cap = configuration.capabilities.maxOutputTokens { limit = min(limit, cap) }
        maxTokens = max(1, limit)
        if let instructions = request.instructions, !instructions.isEmpty { system = instructions }
        messages = Self.messages(request.messages)
        temperature = request.options.temperature
        switch request.options.sampling {
        case .greedy: temperature = 0
        case .topP(let p): topP = p
        case nil: break
        }
        self.stream = stream ? true : nil
        if !request.tools.isEmpty {
            tools = request.tools.map { Tool(name: $0.name, description: $0.description, inputSchema: $0.parameters) }
            toolChoice = request.toolChoice.map(Self.toolChoice)
        } else if let schema = request.responseSchema {
            let name = Self.toolName(request.responseSchemaName)
            tools = [
                Tool(
                    name: name,
                    description: "Record the answer. The input must match this schema exactly; it is the required output format.",
                    inputSchema: schema
                )
            ]
            toolChoice = ToolChoice(name: name)
        }
    }

    /// Whether the response schema is answered through a forced tool: only when the app offers no tools of its
    /// own, since forcing one tool would stop the model from calling theirs (the schema is then checked on text).
    static func usesSchemaTool(_ request: GenerationRequest) -> Bool {
        request.responseSchema != nil && request.tools.isEmpty
    }

    static func toolChoice(_ choice: HybridCore.ToolChoice) -> ToolChoice {
        switch choice {
        case .auto: ToolChoice(type: "auto")
        case .none: ToolChoice(type: "none")
        case .required: ToolChoice(type: "any")
        case .tool(let name): ToolChoice(type: "tool", name: name)
        }
    }

    /// Text turns stay strings; an assistant turn with calls becomes text plus `tool_use` blocks; tool turns
    /// become `tool_result` blocks in a user turn, consecutive results sharing one turn as the API asks.
    static func messages(_ messages: [ChatMessage]) -> [Message] {
        var out: [Message] = []
        for message in messages {
            switch message.role {
            case .tool:
                let block = Block.toolResult(message)
                if let last = out.last, last.role == "user", case .blocks(let blocks) = last.content,
                    blocks.allSatisfy({ $0.type == "tool_result" })
                {
                    out[out.count - 1].content = .blocks(blocks + [block])
                } else {
                    out.append(Message(role: "user", content: .blocks([block])))
                }
            case .assistant where !message.toolCalls.isEmpty:
                let text = message.content.isEmpty ? [] : [Block.text(message.content)]
                out.append(Message(role: "assistant", content: .blocks(text + message.toolCalls.map(Block.toolUse))))
            default:
                out.append(Message(role: message.role.rawValue, content: .text(message.content)))
            }
        }
        return out
    }

    /// Tool names must match `^[a-zA-Z0-9_-]{1,64}$`; anything else becomes `_`.
    static func toolName(_ name: String) -> String {
        OpenAIChatRequest.schemaName(name)
    }
}
