public import HybridCore

/// A tool an app registers on a ``Conversation``: what the model is told (``ToolDefinition``) and the app's code
/// that runs a call.
///
/// The handler gets the call (its parsed `arguments`, already checked against the definition's schema) and
/// returns the result the model reads, usually JSON text. A handler that throws does not end the turn: the model
/// receives `error: …` as the result, so it can correct itself or answer without the tool.
public struct ConversationTool: Sendable {
    /// The tool as offered to every model.
    public var definition: ToolDefinition
    /// Runs one call and returns the result text.
    var handler: @Sendable (ToolCall) async throws -> String
    /// Why the arguments type has no schema; a conversation offering the tool fails its turns with it.
    var argumentsError: StructuredOutputError?

    /// A tool with its handler.
    public init(_ definition: ToolDefinition, handler: @escaping @Sendable (ToolCall) async throws -> String) {
        self.definition = definition
        self.handler = handler
    }

    /// The tool's name.
    var name: String { definition.name }
}

extension ConversationTool {
    /// A tool whose arguments are a ``StructuredOutput`` type, as FoundationModels' `Tool.Arguments` are: the
    /// model is offered the type's schema (its guides included) and the handler gets the decoded value.
    ///
    /// Arguments that break the schema or do not decode never reach the handler: the model is answered
    /// `error: …` and may correct itself, as with any tool. An arguments type without a valid schema fails each
    /// turn of a conversation offering the tool with ``RouterError/Code/invalidOutputType`` (see
    /// ``StructuredOutput/validateSchema()``).
    public init<Arguments: StructuredOutput>(
        name: String, description: String, arguments: Arguments.Type = Arguments.self,
        handler: @escaping @Sendable (Arguments) async throws -> String
    ) {
        let parameters: JSONValue
        var argumentsError: StructuredOutputError?
        do {
            parameters = try Arguments.jsonSchema.source
        } catch {
            parameters = ["type": "object"]
            argumentsError = error
        }
        self.init(ToolDefinition(name: name, description: description, parameters: parameters)) { call in
            try await handler(try JSONValueDecoder().decode(Arguments.self, from: call.arguments ?? [:]))
        }
        self.argumentsError = argumentsError
    }
}
