import HybridCore

/// A tool call in a chat completion: whole in `message.tool_calls`, in pieces in streamed `delta.tool_calls`
/// (where `index` says which call a piece belongs to and only the first piece has `id` and `function.name`).
struct OpenAIToolCallFragment: JSONMemberObject, Equatable {
    struct Function: JSONMemberObject, Equatable {
        var name: String?
        /// JSON text, exactly as the model wrote it (it may not parse).
        var arguments: String?

        static let jsonMembers = JSONMembers<Function>([.member("name", \.name), .member("arguments", \.arguments)])
        static var jsonPlaceholder: Function { Function() }
    }
    var index: Int?
    var id: String?
    var function: Function?

    static let jsonMembers = JSONMembers<OpenAIToolCallFragment>([
        .count("index", \.index), .member("id", \.id), .member("function", \.function),
    ])
    static var jsonPlaceholder: OpenAIToolCallFragment { OpenAIToolCallFragment() }

    /// The fragment as a delta; `position` stands in for a missing `index` (non-streamed calls have none).
    func delta(position: Int) -> ToolCallDelta {
        ToolCallDelta(
            index: index ?? position, id: id, name: function?.name, argumentsFragment: function?.arguments ?? "")
    }
}
