/// One model call of a conversation turn: how it was routed (every attempt, including fallbacks) and the tool
/// calls it asked for, run by the app's handlers.
public struct ConversationStep: Sendable, Equatable {
    /// The routed response of this step; `routed.attempts` lists every model tried.
    public var routed: RoutedResponse
    /// The tool calls run after this step, in the order the model made them; empty for the final answer.
    public var toolExecutions: [ToolExecution]
}
