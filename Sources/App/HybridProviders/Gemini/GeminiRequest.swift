import Foundation
import HybridCore

/// The body of `generateContent` / `streamGenerateContent`, built from a `GenerationRequest`.
///
/// Field names follow the Gemini API reference (`GenerateContentRequest`, `Content`, `GenerationConfig`); nil
/// fields are omitted. Written straight to bytes with sorted keys by `jsonBody()`, as every request body is.
struct GeminiRequest: Equatable {
    /// One part: `text`, a `functionCall` the model made, or the `functionResponse` that answers it.
    struct Part: Equatable {
        var text: String?
        var functionCall: FunctionCall?
        var functionResponse: FunctionResponse?

        init(text: String) { self.text = text }
        init(functionCall: FunctionCall) { self.functionCall = functionCall }
        init(functionResponse: FunctionResponse) { self.functionResponse = functionResponse }
    }

    struct FunctionCall: Equatable {
        var name: String
        var args: JSONValue
    }

    /// `response` must be an object: a tool result that is a JSON object goes as is, anything else under
    /// `output` (the key the function-calling guide names for a function's output).
    struct FunctionResponse: Equatable {
        var name: String
        var response: JSONValue

        init(_ message: ChatMessage) {
            name = message.toolName ?? ""
            let parsed = try? JSONValue(parsing: message.content)
            response = if let object = parsed?.objectValue { .object(object) } else { ["output": parsed ?? .string(message.content)] }
        }
    }

    struct FunctionDeclaration: Equatable {
        var name: String
        var description: String
        var parameters: JSONValue
    }

    struct Tool: Equatable {
        var functionDeclarations: [FunctionDeclaration]
    }

    /// `{"functionCallingConfig": {"mode": "AUTO" | "ANY" | "NONE", "allowedFunctionNames": […]}}`.
    struct ToolConfig: Equatable {
        struct FunctionCallingConfig: Equatable {
            var mode: String
            var allowedFunctionNames: [String]?
        }
        var functionCallingConfig: FunctionCallingConfig

        init(_ choice: ToolChoice) {
            functionCallingConfig = switch choice {
            case .auto: FunctionCallingConfig(mode: "AUTO")
            case .none: FunctionCallingConfig(mode: "NONE")
            case .required: FunctionCallingConfig(mode: "ANY")
            case .tool(let name): FunctionCallingConfig(mode: "ANY", allowedFunctionNames: [name])
            }
        }
    }

    struct Content: Equatable {
        var role: String?
        var parts: [Part]
    }

    struct GenerationConfig: Equatable {
        var maxOutputTokens: Int?
        var temperature: Double?
        var topP: Double?
        var seed: Int?
        var responseMimeType: String?
        var responseSchema: JSONValue?

        var isEmpty: Bool { self == GenerationConfig() }
    }

    var contents: [Content]
    var systemInstruction: Content?
    var generationConfig: GenerationConfig?
    var tools: [Tool]?
    var toolConfig: ToolConfig?

    init(_ request: GenerationRequest) {
        contents = Self.contents(request.messages)
        if !request.tools.isEmpty {
            tools = [Tool(functionDeclarations: request.tools.map {
                FunctionDeclaration(name: $0.name, description: $0.description, parameters: GeminiSchema.convert($0.parameters))
            })]
        }
        toolConfig = request.toolChoice.map(ToolConfig.init)
        if let instructions = request.instructions, !instructions.isEmpty {
            systemInstruction = Content(role: nil, parts: [Part(text: instructions)])
        }
        var config = GenerationConfig()
        config.maxOutputTokens = request.options.maxOutputTokens
        config.temperature = request.options.temperature
        switch request.options.sampling {
        case .greedy: config.temperature = 0
        case .topP(let p): config.topP = p
        case nil: break
        }
        config.seed = request.options.seed
        if let schema = request.responseSchema {
            config.responseMimeType = "application/json"
            config.responseSchema = GeminiSchema.convert(schema)
        }
        generationConfig = config.isEmpty ? nil : config
    }

    /// Text turns as text parts; an assistant turn's calls as `functionCall` parts of a `model` turn; tool turns as
    /// `functionResponse` parts of a `user` turn, consecutive results sharing one turn (parallel calls).
    static func contents(_ messages: [ChatMessage]) -> [Content] {
        var out: [Content] = []
        for message in messages {
            switch message.role {
            case .tool:
                let part = Part(functionResponse: FunctionResponse(message))
                if let last = out.last, last.role == "user", last.parts.allSatisfy({ $0.functionResponse != nil }) {
                    out[out.count - 1].parts.append(part)
                } else {
                    out.append(Content(role: "user", parts: [part]))
                }
            case .assistant:
                let text = message.content.isEmpty && !message.toolCalls.isEmpty ? [] : [Part(text: message.content)]
                let calls = message.toolCalls.map {
                    Part(functionCall: FunctionCall(name: $0.name, args: $0.arguments?.objectValue.map(JSONValue.object) ?? [:]))
                }
                out.append(Content(role: "model", parts: text + calls))
            default:
                out.append(Content(role: "user", parts: [Part(text: message.content)]))
            }
        }
        return out
    }
}

extension GeminiRequest {
    /// The body as JSON with sorted keys (nil members left out), written straight to bytes as every request body
    /// is; nil when `temperature` or `topP` is not a finite number, which JSON cannot carry.
    func jsonBody() -> Data? {
        guard generationConfig?.temperature?.isFinite ?? true, generationConfig?.topP?.isFinite ?? true else { return nil }
        var out = JSONTextWriter(capacity: 256 + contents.reduce(0) { $0 + $1.parts.reduce(0) { $0 + ($1.text?.utf8.count ?? 0) } })
        out.raw("{")
        out.key("contents")
        out.list(contents) { content, out in content.write(to: &out) }
        if let generationConfig { out.key("generationConfig"); generationConfig.write(to: &out) }
        if let systemInstruction { out.key("systemInstruction"); systemInstruction.write(to: &out) }
        if let toolConfig {
            out.key("toolConfig")
            out.raw(#"{"functionCallingConfig":{"#)
            if let names = toolConfig.functionCallingConfig.allowedFunctionNames {
                out.key("allowedFunctionNames")
                out.list(names) { name, out in out.string(name) }
            }
            out.key("mode")
            out.string(toolConfig.functionCallingConfig.mode)
            out.raw("}}")
        }
        if let tools {
            out.key("tools")
            out.list(tools) { tool, out in
                out.raw(#"{"functionDeclarations":"#)
                out.list(tool.functionDeclarations) { function, out in
                    out.raw(#"{"description":"#)
                    out.string(function.description)
                    out.key("name")
                    out.string(function.name)
                    out.key("parameters")
                    out.value(function.parameters)
                    out.raw("}")
                }
                out.raw("}")
            }
        }
        out.raw("}")
        return Data(out.bytes)
    }
}

extension GeminiRequest.Content {
    /// `{"parts":[…],"role":…}`, the role only when set (a system instruction has none).
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.key("parts")
        out.list(parts) { part, out in part.write(to: &out) }
        out.member("role", role)
        out.raw("}")
    }
}

extension GeminiRequest.Part {
    /// `{"functionCall":{"args","name"}}`, `{"functionResponse":{"name","response"}}` or `{"text":…}`, the members set.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        if let functionCall {
            out.key("functionCall")
            out.raw(#"{"args":"#)
            out.value(functionCall.args)
            out.raw(#","name":"#)
            out.string(functionCall.name)
            out.raw("}")
        }
        if let functionResponse {
            out.key("functionResponse")
            out.raw(#"{"name":"#)
            out.string(functionResponse.name)
            out.raw(#","response":"#)
            out.value(functionResponse.response)
            out.raw("}")
        }
        out.member("text", text)
        out.raw("}")
    }
}

extension GeminiRequest.GenerationConfig {
    /// `{"maxOutputTokens","responseMimeType","responseSchema","seed","temperature","topP"}`, the ones set.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.member("maxOutputTokens", maxOutputTokens)
        out.member("responseMimeType", responseMimeType)
        out.member("responseSchema", responseSchema)
        out.member("seed", seed)
        out.member("temperature", temperature)
        out.member("topP", topP)
        out.raw("}")
    }
}
