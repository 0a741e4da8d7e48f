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
    package var handler: @Sendable (ToolCall) async throws -> String

    /// A tool with its handler.
    public init(_ definition: ToolDefinition, handler: @escaping @Sendable (ToolCall) async throws -> String) {
        self.definition = definition
        self.handler = handler
    }

    /// The tool's name.
    package var name: String { definition.name }
}
