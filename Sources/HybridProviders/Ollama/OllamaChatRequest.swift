import HybridCore

/// The body of Ollama's `POST /api/chat` (docs/api.md, "Generate a chat completion").
struct OllamaChatRequest: Encodable, Equatable {
    struct Message: Encodable, Equatable {
        var role: String
        var content: String
        var toolCalls: [ToolCallPayload]?
        /// On a `tool` turn, the tool that produced it (docs/api.md: "tool_name").
        var toolName: String?
        enum CodingKeys: String, CodingKey {
            case role, content
            case toolCalls = "tool_calls"
            case toolName = "tool_name"
        }

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
    struct ToolCallPayload: Encodable, Equatable {
        struct Function: Encodable, Equatable {
            var name: String
            var arguments: JSONValue
        }
        var function: Function

        init(_ call: ToolCall) {
            function = Function(name: call.name, arguments: call.arguments?.objectValue.map(JSONValue.object) ?? [:])
        }
    }

    /// `{"type": "function", "function": {"name", "description", "parameters"}}`: OpenAI's shape, which Ollama's
    /// docs follow.
    struct Tool: Encodable, Equatable {
        struct Function: Encodable, Equatable {
            var name: String
            var description: String
            var parameters: JSONValue
        }
        var type = "function"
        var function: Function
    }

    /// Model parameters (Modelfile names); nil fields are omitted so the model's defaults apply.
    struct Options: Encodable, Equatable {
        var temperature: Double?
        var topP: Double?
        var seed: Int?
        var numPredict: Int?
        var numCtx: Int?

        enum CodingKeys: String, CodingKey {
            case temperature, seed
            case topP = "top_p"
            case numPredict = "num_predict"
            case numCtx = "num_ctx"
        }

        var isEmpty: Bool { self == Options() }
    }

    var model: String
    var messages: [Message]
    var stream: Bool
    var format: JSONValue?
    var options: Options?
    var keepAlive: String?
    /// Ollama has no `tool_choice`: the model always decides (a request's `toolChoice` is not sent).
    var tools: [Tool]?

    enum CodingKeys: String, CodingKey {
        case model, messages, stream, format, options, tools
        case keepAlive = "keep_alive"
    }

    init(_ request: GenerationRequest, configuration: HTTPModelConfiguration, stream: Bool) {
        model = configuration.model
        var messages: [Message] = []
        if let instructions = request.instructions, !instructions.isEmpty {
            messages.append(Message(role: "system", content: instructions))
        }
        messages += request.messages.map(Message.init)
        if !request.tools.isEmpty {
            tools = request.tools.map {
                Tool(function: .init(name: $0.name, description: $0.description, parameters: $0.parameters))
            }
        }
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
        if configuration.sendsContextWindow { options.numCtx = configuration.capabilities.contextWindow }
        self.options = options.isEmpty ? nil : options
        keepAlive = configuration.keepAlive
    }
}
