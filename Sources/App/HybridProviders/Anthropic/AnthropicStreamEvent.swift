import HybridCore

/// The JSON `data:` of one Messages streaming event; which fields are set depends on `type`.
///
/// `message_start` carries `message`; `content_block_start` carries `index` and `content_block`;
/// `content_block_delta` carries `index` and a `delta` of type `text_delta` (`text`) or `input_json_delta`
/// (`partial_json`); `message_delta` carries a `delta` with `stop_reason` and a cumulative `usage`; `error`
/// carries `error`. `ping`, `content_block_stop` and `message_stop` carry nothing the adapter needs. Read through
/// member tables over the byte scanner, like every answer.
struct AnthropicStreamEvent: JSONMemberObject {
    struct Delta: JSONMemberObject {
        var type: String?
        var text: String?
        var partialJSON: String?
        var stopReason: String?

        static let jsonMembers = JSONMembers<Delta>([
            .member("type", \.type), .member("text", \.text), .member("partial_json", \.partialJSON),
            .member("stop_reason", \.stopReason),
        ])
        static var jsonPlaceholder: Delta { Delta() }
    }

    var type: String
    var message: AnthropicMessage?
    var index: Int?
    var contentBlock: AnthropicMessage.Block?
    var delta: Delta?
    var usage: AnthropicUsage?

    static let jsonMembers = JSONMembers<AnthropicStreamEvent>([
        .member("type", \.type), .member("message", \.message), .member("index", \.index),
        .member("content_block", \.contentBlock), .member("delta", \.delta), .member("usage", \.usage),
    ])
    static var jsonPlaceholder: AnthropicStreamEvent { AnthropicStreamEvent(type: "") }
}
