/// One dataset case: the variables a feature's prompt template is rendered with, and what a good answer looks like.
public struct EvalCase: Sendable, Hashable {
    /// Unique within the dataset; part of every stored result's key.
    public var id: String
    /// Template variables (`{{text}}` → `input["text"]`).
    public var input: [String: String]
    /// What a good answer looks like; nil when the case has no reference (only constraints are checked).
    public var reference: Reference?
    /// 1-based line in the dataset file, for error messages and worst-case listings.
    public var line: Int
    /// Earlier turns, tools and expected tool calls; nil for a single-turn case rendered from `input`.
    public var conversation: ConversationCase?

    /// Creates a case; `line` is 1-based.
    public init(id: String, input: [String: String], reference: Reference? = nil, line: Int, conversation: ConversationCase? = nil) {
        self.id = id
        self.input = input
        self.reference = reference
        self.line = line
        self.conversation = conversation
    }

    /// Whether the case sends its own turns instead of the feature's rendered template.
    public var hasOwnMessages: Bool { !(conversation?.messages.isEmpty ?? true) }
}
