import Foundation
import HybridCore

/// The body of Ollama's `POST /api/chat` (docs/api.md, "Generate a chat completion"), written straight to bytes
/// with sorted keys by `jsonBody()`, as every request body is.
struct OllamaChatRequest: Equatable {
    struct Message: Equatable {
        var role: String
        var content: String
        var toolCalls: [ToolCallPayload]?
        /// On a `tool` turn, the tool that produced it (docs/api.md: "tool_name").
        var toolName: String?

        init(role: String, content: String) {
            self.role = role
            self.content = content
        }

        init(_ message: ChatMessage) {
            role = message.role.rawValue
            content = message.content
            toolCalls = message.toolCalls.isEmpty ? nil : message.toolCalls.map(ToolCallPayload.init)
            toolName = message.role == .tool ? message.toolName : nil
        }
    }

    /// `{"function": {"name", "arguments"}}`; Ollama takes the arguments as an object, not as JSON text.
    struct ToolCallPayload: Equatable {
        struct Function: Equatable {
            var name: String
            var arguments: JSONValue
        }
        var function: Function

        init(_ call: ToolCall) {
            function = Function(name: call.name, arguments: call.arguments?.objectValue.map(JSONValue.object) ?? [:])
        }
    }

    /// Model parameters (Modelfile names); nil fields are omitted so the model's defaults apply.
    struct Options: Equatable {
        var temperature: Double?
        var topP: Double?
        var seed: Int?
        var numPredict: Int?
        var numCtx: Int?

        var isEmpty: Bool { self == Options() }
    }

    var model: String
    var messages: [Message]
    var stream: Bool
    var format: JSONValue?
    var options: Options?
    var keepAlive: String?
    /// Sent in OpenAI's shape, which Ollama's docs follow. Ollama has no `tool_choice`: the model always decides
    /// (a request's `toolChoice` is not sent).
    var tools: [ToolDefinition]?

    init(_ request: GenerationRequest, setup: HTTPModelSetup, stream: Bool) {
        model = setup.model
        var messages: [Message] = []
        if let instructions = request.instructions, !instructions.isEmpty {
            messages.append(Message(role: "system", content: instructions))
        }
        messages += request.messages.map(Message.init)
        if !request.tools.isEmpty { tools = request.tools }
        self.messages = messages
        self.stream = stream
        format = request.responseSchema
        var options = Options()
        options.temperature = request.options.temperature
        switch request.options.sampling {
        case .greedy: options.temperature = 0
        case .topP(let p): options.topP = p
        case nil: break
        }
        options.seed = request.options.seed
        options.numPredict = request.options.maxOutputTokens
        if setup.settings.ollamaSendsContextWindow { options.numCtx = setup.capabilities.contextWindow }
        self.options = options.isEmpty ? nil : options
        keepAlive = setup.settings.ollamaKeepAlive
    }
}

extension OllamaChatRequest {
    /// The body as JSON with sorted keys (nil members left out); nil when a temperature or `top_p` is not a finite
    /// number, which JSON cannot carry.
    func jsonBody() -> Data? {
        guard options?.temperature?.isFinite ?? true, options?.topP?.isFinite ?? true else { return nil }
        var out = JSONTextWriter(capacity: 256 + messages.reduce(0) { $0 + $1.content.utf8.count })
        out.raw("{")
        out.member("format", format)
        out.member("keep_alive", keepAlive)
        out.key("messages")
        out.list(messages) { message, out in message.write(to: &out) }
        out.key("model")
        out.string(model)
        if let options { out.key("options"); options.write(to: &out) }
        out.key("stream")
        out.raw(stream ? "true" : "false")
        if let tools {
            out.key("tools")
            out.list(tools) { tool, out in OpenAIChatRequest.write(tool, to: &out) }
        }
        out.raw("}")
        return Data(out.bytes)
    }
}

extension OllamaChatRequest.Message {
    /// `{"content":…,"role":…,"tool_calls":[{"function":{"arguments":{…},"name":…}}],"tool_name":…}`.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.key("content")
        out.string(content)
        out.key("role")
        out.string(role)
        if let toolCalls {
            out.key("tool_calls")
            out.list(toolCalls) { call, out in
                out.raw(#"{"function":{"arguments":"#)
                out.value(call.function.arguments)
                out.raw(#","name":"#)
                out.string(call.function.name)
                out.raw("}}")
            }
        }
        out.member("tool_name", toolName)
        out.raw("}")
    }
}

extension OllamaChatRequest.Options {
    /// `{"num_ctx":…,"num_predict":…,"seed":…,"temperature":…,"top_p":…}`, nil members left out.
    func write(to out: inout JSONTextWriter) {
        out.raw("{")
        out.member("num_ctx", numCtx)
        out.member("num_predict", numPredict)
        out.member("seed", seed)
        out.member("temperature", temperature)
        out.member("top_p", topP)
        out.raw("}")
    }
}
