@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation
import Testing

/// Tool-call fixtures for the Anthropic adapter, in the shapes of:
/// - "Tool use with Claude" (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use):
///   `tools` entries `{"name", "description", "input_schema"}`; `tool_choice` `{"type": "auto" | "any" | "none"}`
///   or `{"type": "tool", "name"}`; the response's `tool_use` content blocks (`id`, `name`, `input` object) with
///   `stop_reason: "tool_use"`, often after a `text` block; results go back in a `user` message as
///   `{"type": "tool_result", "tool_use_id", "content"}` blocks, all results of one turn in that one message.
/// - "Streaming Messages" (https://docs.anthropic.com/en/docs/build-with-claude/streaming): a `tool_use` block
///   starts with `"input": {}` and its input arrives as `input_json_delta` `partial_json` fragments (the first
///   often empty), as in the "Streaming request with tool use" example.
enum AnthropicToolWireFixtures {
    static let callID = "toolu_01D7FLrfh4GYq7yT1ULFeyMV"

    static func message(input: String) -> WireFixture {
        WireFixture(
            "anthropic-tool-call", headers: AnthropicWireFixtures.jsonHeaders,
            body: #"{"id":"msg_01ToolConvert","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022","content":[{"type":"text","text":"I'll convert 36 minutes to hours."},{"type":"tool_use","id":"toolu_01D7FLrfh4GYq7yT1ULFeyMV","name":"convert_units","input":"#
                + input + #"}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":610,"output_tokens":71}}"#)
    }

    static let toolCall = message(input: #"{"value":36,"from":"minutes","to":"hours"}"#)
    static let invalidToolCall = message(input: #"{"value":36,"from":"minutes","to":"fortnights"}"#)

    static let toolCallStream = WireFixture(
        "anthropic-tool-call-stream", headers: AnthropicWireFixtures.sseHeaders,
        body: AnthropicWireFixtures.sse([
            ("message_start", #"{"type":"message_start","message":{"id":"msg_01ToolConvert","type":"message","role":"assistant","model":"claude-3-5-haiku-20241022","stop_sequence":null,"usage":{"input_tokens":610,"output_tokens":1},"content":[],"stop_reason":null}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I'll convert 36 minutes to hours."}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01D7FLrfh4GYq7yT1ULFeyMV","name":"convert_units","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"value\": 36, \"fr"}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"om\": \"minutes\", \"to\": \"hours\"}"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":71}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ]))

    /// Tools with `input_schema`, `tool_choice` auto, the earlier call as a `tool_use` block of an assistant turn
    /// and its result as a `tool_result` block of a user turn.
    static func verifyToolRequest(_ body: JSONValue) throws {
        let tools = try #require(body["tools"]?.arrayValue)
        #expect(tools.map { $0["name"] } == ["lookup_album", "convert_units"])
        #expect(tools.first?["input_schema"] == ProviderConformance.albumTool.parameters)
        #expect(body["tool_choice"] == ["type": "auto"])
        #expect(body["system"] == .string(ProviderConformance.toolRequest.instructions ?? ""))
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.map { $0["role"] } == ["user", "assistant", "user"])
        let earlier = ProviderConformance.earlierCall
        #expect(messages[1]["content"] == [[
            "type": "tool_use", "id": .string(earlier.id), "name": .string(earlier.name), "input": earlier.arguments ?? nil,
        ]])
        #expect(messages[2]["content"] == [[
            "type": "tool_result", "tool_use_id": .string(earlier.id), "content": .string(ProviderConformance.earlierResult),
        ]])
    }
}
