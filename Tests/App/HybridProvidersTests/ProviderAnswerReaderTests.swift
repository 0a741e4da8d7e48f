import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridValidation
import Testing

/// Anthropic, Gemini and Ollama answers are read from bytes through member tables, as OpenAI's are through its
/// reader: no `JSONDecoder` behind them, so a bad member must be named in the error, and a good answer with members
/// the adapter does not use, escapes and `null`s must still read whole.
@Suite struct ProviderAnswerReaderTests {
    static let context = WireContext(modelID: "m", redactor: APIKeyRedactor(key: nil))

    /// The decoding failure's detail, or nil when reading succeeded or failed otherwise.
    static func failureDetail(_ read: () throws(GenerationError) -> Void) -> String? {
        do {
            try read()
            return nil
        } catch {
            return error.kind == .decodingFailure ? error.detail : nil
        }
    }

    @Test func anOllamaLineWithABadMemberNamesIt() {
        let line = Data(#"{"model":"m","message":{"content":"hi","tool_calls":[{"function":{"name":7}}]},"done":true}"#.utf8)
        var result = WireResult()
        let detail = Self.failureDetail { () throws(GenerationError) in _ = try OllamaWire.absorb(line: line, into: &result, context: Self.context) }
        #expect(detail?.contains("message.tool_calls[0].function.name: expected a string") == true, "\(detail ?? "no failure")")
    }

    @Test func anOllamaLineReadsEveryMemberTheAdapterUsesAndSkipsTheRest() throws {
        let line = Data(#"""
            {"model":"llama3.2","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"caf\u00e9 \"ok\"",
             "tool_calls":[{"function":{"name":"f","arguments":{"a":[1,2.5,null]}}}],"images":null},"done":true,
             "done_reason":"stop","prompt_eval_count":12,"eval_count":3,"eval_duration":1500000000,"extra":{"x":[{}]}}
            """#.utf8)
        var result = WireResult()
        let text = try OllamaWire.absorb(line: line, into: &result, context: Self.context)
        #expect(text == "café \"ok\"")
        #expect(result.toolCalls.calls.first?.name == "f")
        #expect(result.toolCalls.calls.first?.arguments == ["a": [1, 2.5, nil]])
        #expect(result.usage?.promptTokens == 12 && result.usage?.completionTokens == 3)
        #expect(result.decodeTokensPerSecond == 2)
        #expect(result.finishReason == .toolCall && result.complete)
    }

    @Test func aGeminiChunkWithABadMemberNamesItsPath() {
        let chunk = Data(#"{"candidates":[{"content":{"parts":[{"text":"a"},{"text":1}]}}]}"#.utf8)
        let detail = Self.failureDetail { () throws(GenerationError) in _ = try GeminiWire.read(chunk, what: "a stream chunk", context: Self.context) }
        #expect(detail?.contains("candidates[0].content.parts[1].text: expected a string") == true, "\(detail ?? "no failure")")
    }

    @Test func aGeminiErrorObjectInPlaceOfAnAnswerIsTheProvidersError() throws {
        let body = Data(#"{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}"#.utf8)
        #expect(throws: GenerationError.self) { try GeminiWire.read(body, what: "the response", context: Self.context) }
        let wrapped = Data(#"[{"error":{"code":500,"message":"boom","status":"INTERNAL"}}]"#.utf8)
        let detail = Self.failureDetail { () throws(GenerationError) in _ = try GeminiWire.read(wrapped, what: "the response", context: Self.context) }
        #expect(detail == nil, "an error body in an array is the provider's error, not a decoding failure")
    }

    @Test func anthropicEventsNameTheMemberAtFault() throws {
        #expect(throws: JSONMemberError(path: "type", "missing")) { try AnthropicStreamEvent.readJSON(bytes: Data(#"{"index":0}"#.utf8)) }
        #expect(throws: JSONMemberError(path: "delta.partial_json", "expected a string")) {
            try AnthropicStreamEvent.readJSON(bytes: Data(#"{"type":"content_block_delta","delta":{"partial_json":[]}}"#.utf8))
        }
        #expect(throws: JSONMemberError(path: "content[0].type", "missing")) {
            try AnthropicMessage.readJSON(bytes: Data(#"{"content":[{"text":"x"}]}"#.utf8))
        }
        let start = try AnthropicStreamEvent.readJSON(bytes: Data(#"""
            {"type":"message_start","message":{"id":"msg_1","model":"claude","content":[],"stop_reason":null,
             "usage":{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":null}}}
            """#.utf8))
        #expect(start.message?.model == "claude")
        #expect(start.message?.usage == AnthropicUsage(inputTokens: 10, outputTokens: 1))
    }

    /// Every stored property of each answer type is a line of its member table (names differ from the wire's, so
    /// counted): a property added without its line would never be read.
    @Test func everyStoredPropertyOfAnAnswerTypeIsInItsTable() {
        func count<T: JSONMemberObject>(_ type: T.Type) -> (properties: Int, members: Int) {
            (Mirror(reflecting: T.jsonPlaceholder).children.count, T.jsonMembers.members.count)
        }
        let counts = [
            ("OllamaChatResponse", count(OllamaChatResponse.self)), ("Ollama Message", count(OllamaChatResponse.Message.self)),
            ("Ollama ToolCallPayload", count(OllamaChatResponse.ToolCallPayload.self)),
            ("Ollama Function", count(OllamaChatResponse.ToolCallPayload.Function.self)),
            ("GeminiResponse", count(GeminiResponse.self)), ("Gemini Part", count(GeminiResponse.Part.self)),
            ("Gemini FunctionCall", count(GeminiResponse.FunctionCall.self)), ("Gemini Content", count(GeminiResponse.Content.self)),
            ("Gemini Candidate", count(GeminiResponse.Candidate.self)), ("Gemini PromptFeedback", count(GeminiResponse.PromptFeedback.self)),
            ("Gemini UsageMetadata", count(GeminiResponse.UsageMetadata.self)), ("AnthropicMessage", count(AnthropicMessage.self)),
            ("Anthropic Block", count(AnthropicMessage.Block.self)), ("AnthropicStreamEvent", count(AnthropicStreamEvent.self)),
            ("Anthropic Delta", count(AnthropicStreamEvent.Delta.self)), ("AnthropicUsage", count(AnthropicUsage.self)),
        ]
        for (name, count) in counts {
            #expect(count.properties == count.members, "\(name)")
        }
    }
}
