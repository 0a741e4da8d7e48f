import Foundation
import HybridConfig
import HybridCore

/// The body of `POST /chat/completions`, built from a `GenerationRequest` and written by ``jsonBody()``.
///
/// Optional fields left nil are omitted from the JSON, so each server applies its own default.
/// Field names and shapes follow the OpenAI Chat Completions reference
/// (https://platform.openai.com/docs/api-reference/chat/create); llama.cpp, vLLM and Ollama accept the same.
struct OpenAIChatRequest: Equatable {
    struct Message: Equatable {
        var role: String
        /// Left out only for an assistant turn that carries nothing but tool calls.
        var content: String?
        var toolCalls: [ToolCall]?
        var toolCallID: String?

        init(_ message: ChatMessage) {
            role = message.role.rawValue
            content = message.content.isEmpty && !message.toolCalls.isEmpty ? nil : message.content
            toolCalls = message.toolCalls.isEmpty ? nil : message.toolCalls
            toolCallID = message.role == .tool ? message.toolCallID : nil
        }

        init(role: String, content: String) {
            self.role = role
            self.content = content
        }
    }

    struct ResponseFormat: Equatable {
        var name: String
        var schema: JSONValue
        var strict: Bool
    }

    var model: String
    var messages: [Message]
    var temperature: Double?
    var topP: Double?
    var maxTokens: Int?
    var maxCompletionTokens: Int?
    var seed: Int?
    var stream: Bool
    /// `stream_options.include_usage`: without it a stream carries no token counts at all.
    var includeUsage: Bool?
    var responseFormat: ResponseFormat?
    var tools: [ToolDefinition]?
    var toolChoice: ToolChoice?

    init(_ request: GenerationRequest, model: String, stream: Bool, maxTokensField: ModelConfig.MaxTokensField) {
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
        switch maxTokensField {
        case .maxTokens: maxTokens = options.maxOutputTokens
        case .maxCompletionTokens: maxCompletionTokens = options.maxOutputTokens
        }
        seed = options.seed
        self.stream = stream
        includeUsage = stream ? true : nil
        if let schema = request.responseSchema {
            responseFormat = ResponseFormat(name: Self.schemaName(request.responseSchemaName), schema: schema, strict: true)
        }
        tools = request.tools.isEmpty ? nil : request.tools
        toolChoice = request.toolChoice
    }

    /// The body as JSON with sorted keys (nil members left out), written straight to bytes: encoding through
    /// `JSONEncoder` was a twentieth of a fast eval's CPU. Nil when `temperature` or `top_p` is not a finite number,
    /// which JSON cannot carry.
    func jsonBody() -> Data? {
        guard temperature?.isFinite ?? true, topP?.isFinite ?? true else { return nil }
        var out = JSONTextWriter(capacity: 256 + messages.reduce(0) { $0 + ($1.content?.utf8.count ?? 0) })
        out.raw("{")
        out.member("max_completion_tokens", maxCompletionTokens)
        out.member("max_tokens", maxTokens)
        out.key("messages")
        out.list(messages) { message, out in message.write(to: &out) }
        out.key("model")
        out.string(model)
        if let responseFormat {
            out.key("response_format")
            responseFormat.write(to: &out)
        }
        out.member("seed", seed)
        out.key("stream")
        out.raw(stream ? "true" : "false")
        if let includeUsage {
            out.key("stream_options")
            out.raw(includeUsage ? #"{"include_usage":true}"# : #"{"include_usage":false}"#)
        }
        out.member("temperature", temperature)
        if let toolChoice {
            out.key("tool_choice")
            Self.write(toolChoice, to: &out)
        }
        if let tools {
            out.key("tools")
            out.list(tools) { tool, out in Self.write(tool, to: &out) }
        }
        out.member("top_p", topP)
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

// MARK: - Writing the members that are objects

extension OpenAIChatRequest.Message {
    /// `{"content":…,"role":…,"tool_call_id":…,"tool_calls":[…]}`, keys sorted, nil members left out.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.member("content", content)
        out.key("role")
        out.string(role)
        out.member("tool_call_id", toolCallID)
        if let toolCalls {
            out.key("tool_calls")
            out.list(toolCalls) { call, out in
                OpenAIChatRequest.writeFunction(to: &out, id: call.id) { out in
                    out.key("arguments")
                    out.string(call.argumentsText)
                    out.key("name")
                    out.string(call.name)
                }
            }
        }
        out.raw("}")
    }
}

extension OpenAIChatRequest.ResponseFormat {
    /// `{"json_schema":{"name":…,"schema":…,"strict":…},"type":"json_schema"}`.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.key("json_schema")
        out.raw("{")
        out.key("name")
        out.string(name)
        out.key("schema")
        out.value(schema)
        out.key("strict")
        out.raw(strict ? "true}" : "false}")
        out.raw(#","type":"json_schema"}"#)
    }
}

extension OpenAIChatRequest {
    /// `{"function":{…},"id":…,"type":"function"}`, keys sorted (the id only for a call): the wrapper a tool, a
    /// named tool choice and a tool call share; `members` writes the function's own.
    static func writeFunction(to out: inout JSONTextWriter, id: String? = nil, _ members: (inout JSONTextWriter) -> Void) {
        out.raw(#"{"function":{"#)
        members(&out)
        out.raw("}")
        out.member("id", id)
        out.raw(#","type":"function"}"#)
    }

    /// `{"function":{"description":…,"name":…,"parameters":…},"type":"function"}`.
    static func write(_ tool: ToolDefinition, to out: inout JSONTextWriter) {
        writeFunction(to: &out) { out in
            out.key("description")
            out.string(tool.description)
            out.key("name")
            out.string(tool.name)
            out.key("parameters")
            out.value(tool.parameters)
        }
    }

    /// `"auto"`, `"none"`, `"required"`, or `{"function":{"name":…},"type":"function"}` for one named tool.
    static func write(_ choice: ToolChoice, to out: inout JSONTextWriter) {
        switch choice {
        case .auto: out.raw(#""auto""#)
        case .none: out.raw(#""none""#)
        case .required: out.raw(#""required""#)
        case .tool(let name):
            writeFunction(to: &out) { out in
                out.key("name")
                out.string(name)
            }
        }
    }
}
