@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation
import Testing

/// Tool-call fixtures for Ollama's native `/api/chat`, in the shapes of Ollama's API documentation
/// (https://github.com/ollama/ollama/blob/main/docs/api.md, "Chat request (with tools)" and "Chat request
/// (with history, with tools)"): `tools` entries `{"type": "function", "function": {"name", "description",
/// "parameters"}}`; the response's `message.tool_calls` as `[{"function": {"name", "arguments"}}]` with the
/// arguments as a JSON object (not text) and `done_reason: "stop"`; the result goes back as
/// `{"role": "tool", "content", "tool_name"}`. Ollama has no `tool_choice`, sends no call id on older servers
/// (calls then get `call_<n>`), and streams each call whole in one line.
enum OllamaToolWireFixtures {
    static func response(arguments: String) -> WireFixture {
        WireFixture(
            "ollama-tool-call", headers: OllamaWireFixtures.jsonHeaders,
            body: #"{"model":"llama3.2","created_at":"2024-07-22T20:33:28.123648Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"convert_units","arguments":"#
                + arguments
                + #"}}]},"done_reason":"stop","done":true,"total_duration":885095291,"load_duration":3753500,"prompt_eval_count":122,"prompt_eval_duration":328493000,"eval_count":33,"eval_duration":552222000}"#)
    }

    static let toolCall = response(arguments: #"{"value":36,"from":"minutes","to":"hours"}"#)
    static let invalidToolCall = response(arguments: #"{"value":36,"from":"minutes","to":"fortnights"}"#)

    static let toolCallStream = WireFixture(
        "ollama-tool-call-stream", headers: OllamaWireFixtures.ndjsonHeaders,
        body: OllamaWireFixtures.ndjson([
            #"{"model":"llama3.2","created_at":"2024-07-22T20:33:28.123648Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"convert_units","arguments":{"value":36,"from":"minutes","to":"hours"}}}]},"done":false}"#,
            #"{"model":"llama3.2","created_at":"2024-07-22T20:33:28.301213Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":885095291,"load_duration":3753500,"prompt_eval_count":122,"prompt_eval_duration":328493000,"eval_count":33,"eval_duration":552222000}"#,
        ]))

    /// Tools as functions, no `tool_choice`, the earlier call with object arguments on an assistant message, and
    /// its result as a `tool` message naming the tool.
    static func verifyToolRequest(_ body: JSONValue) throws {
        let tools = try #require(body["tools"]?.arrayValue)
        #expect(tools.map { $0["function"]?["name"] } == ["lookup_album", "convert_units"])
        #expect(tools.first?["function"]?["parameters"] == ProviderConformance.albumTool.parameters)
        #expect(body["tool_choice"] == nil)
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.map { $0["role"] } == ["system", "user", "assistant", "tool"])
        let earlier = ProviderConformance.earlierCall
        #expect(messages[2]["tool_calls"] == [["function": ["name": .string(earlier.name), "arguments": earlier.arguments ?? nil]]])
        #expect(messages[3]["tool_name"] == .string(earlier.name))
        #expect(messages[3]["content"] == .string(ProviderConformance.earlierResult))
    }
}
