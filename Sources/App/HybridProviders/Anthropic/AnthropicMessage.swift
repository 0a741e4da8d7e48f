import HybridCore

/// A Messages API response (`"type": "message"`), also carried by the `message_start` event with empty content.
/// Read straight from bytes through its member tables (no `Codable`); `null` counts as missing.
struct AnthropicMessage: JSONMemberObject {
    /// One content block: `text` with `text`, or `tool_use` with `id`, `name` and `input`.
    struct Block: JSONMemberObject {
        var type: String
        var text: String?
        var id: String?
        var name: String?
        var input: JSONValue?

        static let jsonMembers = JSONMembers<Block>([
            .member("type", \.type), .member("text", \.text), .member("id", \.id), .member("name", \.name),
            .member("input", \.input),
        ])
        static var jsonPlaceholder: Block { Block(type: "") }
    }

    var model: String?
    var content: [Block]?
    var stopReason: String?
    var usage: AnthropicUsage?

    static let jsonMembers = JSONMembers<AnthropicMessage>([
        .member("model", \.model), .member("content", \.content), .member("stop_reason", \.stopReason),
        .member("usage", \.usage),
    ])
    static var jsonPlaceholder: AnthropicMessage { AnthropicMessage() }
}
