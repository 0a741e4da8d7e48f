public import HybridCore

/// One tool call the router ran during a conversation turn, with what the model got back.
public struct ToolExecution: Sendable, Equatable {
    /// The call as the model made it.
    public var call: ToolCall
    /// The result sent to the model: the handler's text, or `error: …`.
    public var result: String
    /// False when the handler threw, the tool is unknown or the arguments failed the tool's schema (then the
    /// handler was not called).
    public var succeeded: Bool
    /// How long the handler ran (zero when it was not called).
    public var duration: Duration
}
