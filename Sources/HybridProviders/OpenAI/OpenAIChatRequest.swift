import Foundation
import HybridCore

/// The body of `POST /chat/completions`, built from a `GenerationRequest`.
///
/// Optional fields left nil are omitted from the JSON, so each server applies its own default.
/// Field names and shapes follow the OpenAI Chat Completions reference; llama.cpp, vLLM and Ollama accept the same.
struct OpenAIChatRequest: Encodable, Equatable {
    struct Message: Encodable, Equatable {
        var role: String
        /// Omitted on an assistant turn that only called tools (the reference allows null there).
        var content: String?
        var toolCalls: [ToolCallPayload]?
        var toolCallID: String?
        enum CodingKeys: String, CodingKey {
            case role, content
            case toolCalls = "tool_calls"
            case toolCallID = "tool_call_id"
        }

        init(_ message: ChatMessage) {
            role = message.role.rawValue
            content = message.content.isEmpty && !message.toolCalls.isEmpty ? nil : message.content
            toolCalls = message.toolCalls.isEmpty ? nil : message.toolCalls.map(ToolCallPayload.init)
            toolCallID = message.role == .tool ? message.toolCallID : nil
        }

        init(role: String, content: String) {
            self.role = role
            self.content = content
        }
    }

    /// `{"type": "function", "function": {…}}`: the shape of a tool, a call and a named tool choice.
    struct Function<Body: Encodable & Equatable>: Encodable, Equatable {
        var type = "function"
        var function: Body
    }

    struct ToolCallPayload: Encodable, Equatable {
        struct Call: Encodable, Equatable {
            var name: String
            var arguments: String
        }
        var id: String
        var type = "function"
        var function: Call

        init(_ call: ToolCall) {
            id = call.id
            function = Call(name: call.name, arguments: call.argumentsText)
        }
    }

    struct ToolPayload: Encodable, Equatable {
        var name: String
        var description: String
        var parameters: JSONValue
    }

    struct NamedTool: Encodable, Equatable {
        var name: String
    }

    /// `"auto"`, `"none"`, `"required"` or `{"type": "function", "function": {"name": …}}`.
    enum ToolChoicePayload: Encodable, Equatable {
        case word(String)
        case named(Function<NamedTool>)

        init(_ choice: ToolChoice) {
            switch choice {
            case .auto: self = .word("auto")
            case .none: self = .word("none")
            case .required: self = .word("required")
            case .tool(let name): self = .named(Function(function: NamedTool(name: name)))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .word(let word): try word.encode(to: encoder)
            case .named(let named): try named.encode(to: encoder)
            }
        }
    }

    struct StreamOptions: Encodable, Equatable {
        var includeUsage: Bool
        enum CodingKeys: String, CodingKey { case includeUsage = "include_usage" }
    }

    struct ResponseFormat: Encodable, Equatable {
        struct Schema: Encodable, Equatable {
            var name: String
            var schema: JSONValue
            var strict: Bool
        }
        var type = "json_schema"
        var jsonSchema: Schema
        enum CodingKeys: String, CodingKey {
            case type
            case jsonSchema = "json_schema"
        }
    }

    var model: String
    var messages: [Message]
    var temperature: Double?
    var topP: Double?
    var maxTokens: Int?
    var maxCompletionTokens: Int?
    var seed: Int?
    var stream: Bool
    var streamOptions: StreamOptions?
    var responseFormat: ResponseFormat?
    var tools: [Function<ToolPayload>]?
    var toolChoice: ToolChoicePayload?

    enum CodingKeys: String, CodingKey {
        case model, messages, temperature, seed, stream
        case topP = "top_p"
        case maxTokens = "max_tokens"
        case maxCompletionTokens = "max_completion_tokens"
        case streamOptions = "stream_options"
        case responseFormat = "response_format"
        case tools
        case toolChoice = "tool_choice"
    }

    init(_ request: GenerationRequest, model: String, stream: Bool, maxTokensParameter: OpenAICompatibleModelConfiguration.MaxTokensParameter) {
        self.model = model
        var messages: [Message] = []
        if let instructions = request.instructions, !instructions.isEmpty {
            messages.append(Message(role: "system", content: instructions))
        }
        messages += request.messages.map(Message.init)
        self.messages = messages

        let options = request.options
        temperature = options.temperature
        switch options.sampling {
        case .greedy:
            // The API has no greedy switch; temperature 0 is the documented way to get (near-)deterministic output.
            temperature = 0
        case .topP(let p):
            topP = p
        case nil:
            break
        }
        switch maxTokensParameter {
        case .maxTokens: maxTokens = options.maxOutputTokens
        case .maxCompletionTokens: maxCompletionTokens = options.maxOutputTokens
        }
        seed = options.seed
        self.stream = stream
        // Without include_usage a stream carries no token counts at all.
        streamOptions = stream ? StreamOptions(includeUsage: true) : nil
        if let schema = request.responseSchema {
            responseFormat = ResponseFormat(
                jsonSchema: .init(name: Self.schemaName(request.responseSchemaName), schema: schema, strict: true)
            )
        }
        if !request.tools.isEmpty {
            tools = request.tools.map {
                Function(function: ToolPayload(name: $0.name, description: $0.description, parameters: $0.parameters))
            }
        }
        toolChoice = request.toolChoice.map(ToolChoicePayload.init)
    }

    /// The body as `JSONEncoder` with sorted keys wrote it (same members, same order, nil members left out), written
    /// straight to bytes: encoding through `JSONEncoder` was a twentieth of a fast eval's CPU. Nil when a number is
    /// not finite: the `Encodable` path then reports it. Nil too for a request with tools or tool turns, whose extra
    /// members (`tools`, `tool_choice`, `tool_calls`, `tool_call_id`, null content) only the `Encodable` path writes.
    func jsonBody() -> Data? {
        guard temperature?.isFinite ?? true, topP?.isFinite ?? true else { return nil }
        guard tools == nil, toolChoice == nil,
            messages.allSatisfy({ $0.toolCalls == nil && $0.toolCallID == nil && $0.content != nil })
        else { return nil }
        var out = JSONTextWriter(capacity: 256 + messages.reduce(0) { $0 + ($1.content?.utf8.count ?? 0) })
        out.raw("{")
        var first = true
        func key(_ name: StaticString) {
            out.key(name, first: first)
            first = false
        }
        if let maxCompletionTokens { key("max_completion_tokens"); out.number(maxCompletionTokens) }
        if let maxTokens { key("max_tokens"); out.number(maxTokens) }
        key("messages")
        out.raw("[")
        for (index, message) in messages.enumerated() {
            out.raw(index == 0 ? "{" : ",{")
            out.key("content", first: true)
            out.string(message.content ?? "")
            out.key("role")
            out.string(message.role)
            out.raw("}")
        }
        out.raw("]")
        key("model")
        out.string(model)
        if let responseFormat {
            key("response_format")
            out.raw("{")
            out.key("json_schema", first: true)
            out.raw("{")
            out.key("name", first: true)
            out.string(responseFormat.jsonSchema.name)
            out.key("schema")
            out.value(responseFormat.jsonSchema.schema)
            out.key("strict")
            out.raw(responseFormat.jsonSchema.strict ? "true}" : "false}")
            out.key("type")
            out.string(responseFormat.type)
            out.raw("}")
        }
        if let seed { key("seed"); out.number(seed) }
        key("stream")
        out.raw(stream ? "true" : "false")
        if let streamOptions {
            key("stream_options")
            out.raw("{")
            out.key("include_usage", first: true)
            out.raw(streamOptions.includeUsage ? "true}" : "false}")
        }
        if let temperature { key("temperature"); out.number(temperature) }
        if let topP { key("top_p"); out.number(topP) }
        out.raw("}")
        return Data(out.bytes)
    }

    /// OpenAI requires `json_schema.name` to match `^[a-zA-Z0-9_-]{1,64}$`; anything else becomes `_`.
    static func schemaName(_ name: String) -> String {
        let cleaned = String(
            name.unicodeScalars.prefix(64).map { scalar -> Character in
                let ok = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                return ok ? Character(scalar) : "_"
            }
        )
        return cleaned.isEmpty ? "response" : cleaned
    }
}
