public import HybridCore

/// The outcome of ``Conversation/send(_:deadline:)``: the final answer and every step that led to it.
public struct ConversationTurn: Sendable, Equatable {
    /// The model's final answer (a response without tool calls).
    public var response: GenerationResponse
    /// Every model call of the turn, in order; the last one produced `response`.
    public var steps: [ConversationStep]
}
