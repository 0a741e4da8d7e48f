import Foundation
@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation

/// Wire fixtures for the Anthropic Messages API adapter.
///
/// Shapes follow:
/// - "Streaming Messages" (https://docs.anthropic.com/en/docs/build-with-claude/streaming): every event has an
///   SSE `event:` name matching the `type` in its JSON `data:`; the flow is `message_start` (a Message with empty
///   `content` and `usage.input_tokens`), per block `content_block_start` / `content_block_delta` /
///   `content_block_stop`, then `message_delta` (`stop_reason`, cumulative `usage.output_tokens`) and
///   `message_stop`; `ping` events may appear anywhere; deltas are `text_delta` (`text`) or `input_json_delta`
///   (`partial_json`, for `tool_use` blocks that start with `"input": {}`); errors may arrive mid-stream as
///   `event: error` with `{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`.
///   The basic example's byte layout (`data: {"type": "message_start", ...}` with spaces) is kept.
/// - Messages API reference (https://docs.anthropic.com/en/api/messages): `usage` with `input_tokens`,
///   `output_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens`; `stop_reason` values `end_turn`,
///   `max_tokens`, `stop_sequence`, `tool_use`, `refusal`; `tool_choice: {"type": "tool", "name"}`.
/// - "Errors" (https://docs.anthropic.com/en/api/errors): `{"type": "error", "error": {"type", "message"},
///   "request_id"}`; 400 `invalid_request_error`, 401 `authentication_error`, 429 `rate_limit_error`, 529
///   `overloaded_error`. The `retry-after` header on 429 is from "Rate limits"
///   (https://docs.anthropic.com/en/api/rate-limits). The spend-limit 429 carrying
///   `error.details.error_code: enforced_spend_limit_reached`, not to be retried, is as summarised from Anthropic's
///   errors page by Microsoft's Dev Proxy docs ("Anthropic 529 overloaded_error", learn.microsoft.com).
/// - The context-window message `prompt is too long: 208310 tokens > 200000 maximum` is verbatim from API
///   responses quoted in public bug reports (anthropics/claude-code#12186, stackblitz/bolt.new#1748).
enum AnthropicWireFixtures {
    static let apiKey = "sk-ant-api03-HYBRIDTEST-anthropic-0123456789"
    static let apiKeyVariable = "HYBRID_TEST_ANTHROPIC_KEY"
    static let jsonHeaders: [(String, String)] = [("Content-Type", "application/json"), ("request-id", "req_011CSHoEeqs5C35K2UUqR7Fy")]
    static let sseHeaders: [(String, String)] = [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")]

    /// `event: <type>\ndata: <json>\n\n` for each pair, as the API frames them.
    static func sse(_ events: [(String, String)]) -> String {
        events.map { "event: \($0.0)\ndata: \($0.1)\n\n" }.joined()
    }

    static let message = WireFixture(
        "anthropic-message", headers: jsonHeaders,
        body: #"""
            {"id":"msg_013Zva2CMHLNnXjNJJKqJ2EF","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022","content":[{"type":"text","text":"The capital of France is Paris."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":2048,"cache_read_input_tokens":1024,"output_tokens":9}}
            """#
    )

    static let streamDeltas = ["Hello", ", wörld", " 👋", "!"]
    static let messageStart = #"{"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-3-5-haiku-20241022", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}}"#
    static let textBlockStart = #"{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}"#

    static func textDelta(_ text: String) -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        return #"{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "# + escaped + "}}"
    }

    static let stream = WireFixture(
        "anthropic-stream", headers: sseHeaders,
        body: sse(
            [("message_start", messageStart), ("content_block_start", textBlockStart), ("ping", #"{"type": "ping"}"#)]
                + streamDeltas.map { ("content_block_delta", textDelta($0)) }
                + [
                    ("content_block_stop", #"{"type": "content_block_stop", "index": 0}"#),
                    ("message_delta", #"{"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}"#),
                    ("message_stop", #"{"type": "message_stop"}"#),
                ])
    )

    static let streamHead = WireFixture(
        "anthropic-stream-head", headers: sseHeaders,
        body: sse([("message_start", messageStart), ("content_block_start", textBlockStart), ("content_block_delta", textDelta("Hello"))])
    )

    /// Structured output as the forced tool's input.
    static let toolUseMessage = WireFixture(
        "anthropic-tool-use", headers: jsonHeaders,
        body: #"""
            {"id":"msg_01Aq9w938a90dw8q","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022","content":[{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"person","input":{"name":"Ada Lovelace","company":"Analytical Engines Ltd"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":35}}
            """#
    )

    static let toolUseStream = WireFixture(
        "anthropic-tool-use-stream", headers: sseHeaders,
        body: sse([
            ("message_start", #"{"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2},"content":[],"stop_reason":null}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"person","input":{}}}"#),
            ("ping", #"{"type": "ping"}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"name\": \"Ada"}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" Lovelace\", \"comp"}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"any\": \"Analytical Engines Ltd\"}"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
    )

    // MARK: Errors

    static let rateLimited = WireFixture(
        "anthropic-429-rate-limit", status: 429,
        headers: jsonHeaders + [("retry-after", "30"), ("anthropic-ratelimit-requests-remaining", "0")],
        body: #"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later."},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}"#
    )
    static let spendLimit = WireFixture(
        "anthropic-429-spend-limit", status: 429, headers: jsonHeaders,
        body: #"{"type":"error","error":{"type":"rate_limit_error","message":"You have reached your organization's monthly spend limit. Access resumes at the start of next month.","details":{"error_code":"enforced_spend_limit_reached"}},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fz"}"#
    )
    static let overloaded = WireFixture(
        "anthropic-529-overloaded", status: 529, headers: jsonHeaders,
        body: #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7G0"}"#
    )
    static let promptTooLong = WireFixture(
        "anthropic-400-prompt-too-long", status: 400, headers: jsonHeaders,
        body: #"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_011CVQe1dLrGNMJyE1ghG1av"}"#
    )
    static let invalidKey = WireFixture(
        "anthropic-401-invalid-key", status: 401, headers: jsonHeaders,
        body: #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_011CSHoEeqs5C35K2UUqR7G1"}"#
    )
    static let forbiddenEchoingKey = WireFixture(
        "anthropic-403-echoes-key", status: 403, headers: jsonHeaders,
        body: #"{"type":"error","error":{"type":"permission_error","message":"key sk-ant-api03-HYBRIDTEST-anthropic-0123456789 may not use this model"},"request_id":"req_1"}"#
    )
    static let apiError = WireFixture(
        "anthropic-500-api-error", status: 500, headers: jsonHeaders,
        body: #"{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_2"}"#
    )
    static let refusal = WireFixture(
        "anthropic-refusal", headers: jsonHeaders,
        body: #"{"id":"msg_r","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"stop_reason":"refusal","stop_sequence":null,"usage":{"input_tokens":20,"output_tokens":0}}"#
    )
    static let midStreamOverloaded = WireFixture(
        "anthropic-mid-stream-overloaded", headers: sseHeaders,
        body: sse([
            ("message_start", messageStart), ("content_block_start", textBlockStart), ("content_block_delta", textDelta("Partial")),
            ("error", #"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#),
        ])
    )
    static let truncatedStream = WireFixture(
        "anthropic-stream-without-message-stop", headers: sseHeaders,
        body: sse([("message_start", messageStart), ("content_block_start", textBlockStart), ("content_block_delta", textDelta("Cut"))])
    )
}
