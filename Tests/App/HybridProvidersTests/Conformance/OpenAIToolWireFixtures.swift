@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation
import Testing

/// Tool-call fixtures for the OpenAI-compatible adapter, in the shapes of:
/// - OpenAI function calling guide (https://platform.openai.com/docs/guides/function-calling): `tools` entries
///   `{"type": "function", "function": {"name", "description", "parameters"}}`, `tool_choice` `"auto"` /
///   `"required"` / `"none"` / `{"type": "function", "function": {"name"}}`, the assistant message carrying
///   `tool_calls` (`id`, `type: "function"`, `function.name`, `function.arguments` as a JSON string) and the
///   `{"role": "tool", "tool_call_id", "content"}` result message; streamed calls arrive as `delta.tool_calls`
///   entries keyed by `index`, the first with `id` and `function.name`, later ones adding `function.arguments`
///   text, and the choice ends with `finish_reason: "tool_calls"`.
/// - Chat Completions reference (https://platform.openai.com/docs/api-reference/chat/object): `message.content`
///   is null when the model only called tools.
/// - llama.cpp `tools/server/README.md` ("--jinja" tool calling, OpenAI-compatible `tool_calls`).
enum OpenAIToolWireFixtures {
    static let callID = "call_convert_1"

    static func completion(arguments: String) -> WireFixture {
        WireFixture(
            "openai-tool-call", headers: OpenAIWireFixtures.jsonHeaders,
            body: #"{"id":"chatcmpl-tool","object":"chat.completion","created":1732300000,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_convert_1","type":"function","function":{"name":"convert_units","arguments":"#
                + arguments
                + #"}}],"refusal":null},"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":120,"completion_tokens":24,"total_tokens":144}}"#)
    }

    static let toolCall = completion(arguments: #""{\"value\":36,\"from\":\"minutes\",\"to\":\"hours\"}""#)
    static let invalidToolCall = completion(arguments: #""{\"value\":36,\"from\":\"minutes\",\"to\":\"fortnights\"}""#)

    static let toolCallStream = WireFixture(
        "openai-tool-call-stream", headers: OpenAIWireFixtures.sseHeaders,
        body: OpenAIWireFixtures.sse([
            #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_convert_1","type":"function","function":{"name":"convert_units","arguments":""}}]},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"value\":36,"}}]},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"from\":\"minutes\","}}]},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"to\":\"hours\"}"}}]},"finish_reason":null}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":24,"total_tokens":144}}"#,
            "[DONE]",
        ]))

    /// Tools as `{"type": "function", "function": …}`, `tool_choice`, the earlier call as `tool_calls` on an
    /// assistant message without content, and its result as a `tool` message naming the call.
    static func verifyToolRequest(_ body: JSONValue) throws {
        let tools = try #require(body["tools"]?.arrayValue)
        #expect(tools.map { $0["type"] } == ["function", "function"])
        #expect(tools.map { $0["function"]?["name"] } == ["lookup_album", "convert_units"])
        #expect(tools.first?["function"]?["parameters"] == ProviderConformance.albumTool.parameters)
        #expect(body["tool_choice"] == "auto")
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.map { $0["role"] } == ["system", "user", "assistant", "tool"])
        let earlier = ProviderConformance.earlierCall
        #expect(messages[2]["content"] == nil)
        #expect(messages[2]["tool_calls"] == [[
            "id": .string(earlier.id), "type": "function",
            "function": ["name": .string(earlier.name), "arguments": .string(earlier.argumentsText)],
        ]])
        #expect(messages[3]["tool_call_id"] == .string(earlier.id))
        #expect(messages[3]["content"] == .string(ProviderConformance.earlierResult))
    }
}
