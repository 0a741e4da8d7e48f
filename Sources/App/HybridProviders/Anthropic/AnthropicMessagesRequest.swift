import Foundation
import HybridCore

/// The body of `POST /v1/messages`, built from a `GenerationRequest`.
///
/// Field names follow the Messages API reference; nil fields are omitted so the API applies its defaults. Written
/// straight to bytes with sorted keys by `jsonBody()`, as every request body is.
struct AnthropicMessagesRequest: Equatable {
    struct Message: Equatable {
        var role: String
        var content: Content
    }

    /// A plain string for text turns; content blocks for turns with `tool_use` or `tool_result`.
    enum Content: Equatable {
        case text(String)
        case blocks([Block])
    }

    /// A `text`, `tool_use` or `tool_result` content block.
    struct Block: Equatable {
        var type: String
        var text: String?
        var id: String?
        var name: String?
        var input: JSONValue?
        var toolUseID: String?
        var content: String?

        static func text(_ text: String) -> Block { Block(type: "text", text: text) }
        /// Anthropic wants `input` as an object: arguments that did not parse to one are sent as `{}`.
        static func toolUse(_ call: ToolCall) -> Block {
            Block(type: "tool_use", id: call.id, name: call.name, input: call.arguments?.objectValue.map(JSONValue.object) ?? [:])
        }
        static func toolResult(_ message: ChatMessage) -> Block {
            Block(type: "tool_result", toolUseID: message.toolCallID ?? "", content: message.content)
        }
    }

    struct Tool: Equatable {
        var name: String
        var description: String
        var inputSchema: JSONValue
    }

    /// `{"type": "auto" | "any" | "none"}` or `{"type": "tool", "name": …}`.
    struct ToolChoice: Equatable {
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

    init(_ request: GenerationRequest, setup: HTTPModelSetup, stream: Bool) {
        model = setup.model
        var limit = request.options.maxOutputTokens ?? setup.defaultMaxTokens
        if let cap = setup.capabilities.maxOutputTokens { limit = min(limit, cap) }
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
        // A last assistant turn is a prefill the model continues (the router's stream recovery sends one); the API
        // refuses one that ends in white space.
        if let last = out.last, last.role == "assistant", case .text(let text) = last.content {
            out[out.count - 1].content = .text(String(text.reversed().drop(while: \.isWhitespace).reversed()))
        }
        return out
    }

    /// Tool names must match `^[a-zA-Z0-9_-]{1,64}$`; anything else becomes `_`.
    static func toolName(_ name: String) -> String {
        OpenAIChatRequest.schemaName(name)
    }
}

extension AnthropicMessagesRequest {
    /// The body as JSON with sorted keys (nil members left out), written straight to bytes as every request body
    /// is; nil when `temperature` or `top_p` is not a finite number, which JSON cannot carry.
    func jsonBody() -> Data? {
        guard temperature?.isFinite ?? true, topP?.isFinite ?? true else { return nil }
        var out = JSONTextWriter(capacity: 256 + (system?.utf8.count ?? 0))
        out.raw("{")
        out.key("max_tokens")
        out.number(maxTokens)
        out.key("messages")
        out.list(messages) { message, out in message.write(to: &out) }
        out.key("model")
        out.string(model)
        if let stream { out.key("stream"); out.raw(stream ? "true" : "false") }
        out.member("system", system)
        out.member("temperature", temperature)
        if let toolChoice { out.key("tool_choice"); toolChoice.write(to: &out) }
        if let tools {
            out.key("tools")
            out.list(tools) { tool, out in tool.write(to: &out) }
        }
        out.member("top_p", topP)
        out.raw("}")
        return Data(out.bytes)
    }
}

extension AnthropicMessagesRequest.Message {
    /// `{"content":"…" or [blocks],"role":…}`.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.key("content")
        switch content {
        case .text(let text): out.string(text)
        case .blocks(let blocks): out.list(blocks) { block, out in block.write(to: &out) }
        }
        out.key("role")
        out.string(role)
        out.raw("}")
    }
}

extension AnthropicMessagesRequest.Block {
    /// `{"content","id","input","name","text","tool_use_id","type"}`, the ones set.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.member("content", content)
        out.member("id", id)
        out.member("input", input)
        out.member("name", name)
        out.member("text", text)
        out.member("tool_use_id", toolUseID)
        out.key("type")
        out.string(type)
        out.raw("}")
    }
}

extension AnthropicMessagesRequest.Tool {
    /// `{"description":…,"input_schema":…,"name":…}`.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.key("description")
        out.string(description)
        out.key("input_schema")
        out.value(inputSchema)
        out.key("name")
        out.string(name)
        out.raw("}")
    }
}

extension AnthropicMessagesRequest.ToolChoice {
    /// `{"name":…,"type":…}`, the name only for a named tool.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.member("name", name)
        out.key("type")
        out.string(type)
        out.raw("}")
    }
}
