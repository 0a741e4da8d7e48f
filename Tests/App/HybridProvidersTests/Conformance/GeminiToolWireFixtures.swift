@testable import HybridCore
@testable import HybridTesting
@testable import HybridValidation
import Testing

/// Tool-call fixtures for the Gemini adapter, in the shapes of:
/// - "Function calling with the Gemini API" (https://ai.google.dev/gemini-api/docs/function-calling): `tools`
///   as `[{"functionDeclarations": [{"name", "description", "parameters"}]}]`; `toolConfig.functionCallingConfig`
///   with `mode` `AUTO` / `ANY` / `NONE` and `allowedFunctionNames`; the model's turn (`role: "model"`) carries
///   `functionCall` parts (`name`, `args` object) and the app answers with `functionResponse` parts (`name`,
///   `response` object, the function's output under `output`) in a `user` turn; a call comes with
///   `finishReason: "STOP"`.
/// - "Generating content" (https://ai.google.dev/api/generate-content) and the `FunctionCall` type
///   (https://ai.google.dev/api/caching#FunctionCall): `id` is optional, so calls without one get `call_<n>`;
///   streamed responses send each call whole in one chunk.
enum GeminiToolWireFixtures {
    static func response(args: String) -> WireFixture {
        WireFixture(
            "gemini-tool-call", headers: GeminiWireFixtures.jsonHeaders,
            body: #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "convert_units","args": "#
                + args
                + #"}}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 151,"candidatesTokenCount": 22,"totalTokenCount": 173},"modelVersion": "gemini-2.0-flash"}"#)
    }

    static let toolCall = response(args: #"{"value": 36,"from": "minutes","to": "hours"}"#)
    static let invalidToolCall = response(args: #"{"value": 36,"from": "minutes","to": "fortnights"}"#)

    static let toolCallStream = WireFixture(
        "gemini-tool-call-stream", headers: GeminiWireFixtures.sseHeaders,
        body: GeminiWireFixtures.sse([
            #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "convert_units","args": {"value": 36,"from": "minutes","to": "hours"}}}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 151,"totalTokenCount": 151},"modelVersion": "gemini-2.0-flash"}"#,
            #"{"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 151,"candidatesTokenCount": 22,"totalTokenCount": 173},"modelVersion": "gemini-2.0-flash"}"#,
        ]))

    /// `functionDeclarations` with converted schemas, `functionCallingConfig` AUTO, the earlier call as a
    /// `functionCall` part of a model turn and its result as a `functionResponse` part of a user turn.
    static func verifyToolRequest(_ body: JSONValue) throws {
        let declarations = try #require(body["tools"]?.arrayValue?.first?["functionDeclarations"]?.arrayValue)
        #expect(declarations.map { $0["name"] } == ["lookup_album", "convert_units"])
        #expect(declarations.first?["parameters"]?["type"] == "OBJECT")
        #expect(declarations.first?["parameters"]?["properties"]?["title"] == ["type": "STRING"])
        #expect(body["toolConfig"] == ["functionCallingConfig": ["mode": "AUTO"]])
        let contents = try #require(body["contents"]?.arrayValue)
        #expect(contents.map { $0["role"] } == ["user", "model", "user"])
        let earlier = ProviderConformance.earlierCall
        #expect(contents[1]["parts"] == [["functionCall": ["name": .string(earlier.name), "args": earlier.arguments ?? nil]]])
        let result = try JSONValue(parsing: ProviderConformance.earlierResult)
        #expect(contents[2]["parts"] == [["functionResponse": ["name": .string(earlier.name), "response": result]]])
    }
}
