import HybridCore

/// A Messages API response (`"type": "message"`), also carried by the `message_start` event with empty content.
struct AnthropicMessage: Decodable {
    /// One content block: `text` with `text`, or `tool_use` with `id`, `name` and `input`.
    struct Block: Decodable {
        var type: String
        var text: String?
        var id: String?
        var name: String?
        var input: JSONValue?
    }

    var model: String?
    var content: [Block]?
    var stopReason: String?
    var usage: AnthropicUsage?

    enum CodingKeys: String, CodingKey {
        case model, content, usage
        case stopReason = "stop_reason"
    }
}
