import Foundation
import HybridCore
@testable import HybridProviders
import Testing

/// The request body written without `JSONEncoder`, and answers and stream chunks read without `JSONDecoder`
/// (issue #10's profile), must mean exactly what the `Codable` paths mean.
@Suite struct OpenAIFastPathTests {
    @Test(arguments: [false, true]) func requestBodyMatchesJSONEncoder(stream: Bool) throws {
        let request = GenerationRequest(
            instructions: "Be brief. \"Quoted\"\n\t\u{1}é/",
            messages: [.user("Hi"), .assistant("Hello!"), .user("Capital of France?")],
            options: GenerationOptions(temperature: 0.2, maxOutputTokens: 100, sampling: .topP(0.9), seed: 42),
            responseSchema: ["type": "object", "properties": ["a": ["type": "string"]], "required": ["a"]],
            responseSchemaName: "answer")
        for parameter in [OpenAICompatibleModel.MaxTokensParameter.maxTokens, .maxCompletionTokens] {
            let body = OpenAIChatRequest(request, model: "m", stream: stream, maxTokensParameter: parameter)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let fast = try JSONValue(parsing: String(decoding: try #require(body.jsonBody()), as: UTF8.self))
            #expect(fast == (try JSONValue(parsing: String(decoding: encoder.encode(body), as: UTF8.self))))
        }
        var infinite = OpenAIChatRequest(request, model: "m", stream: stream, maxTokensParameter: .maxTokens)
        infinite.temperature = .infinity
        #expect(infinite.jsonBody() == nil)
    }

    @Test func answersAndChunksMatchJSONDecoder() throws {
        let completion = #"{"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi \"there\"","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":1}},"timings":{"prompt_ms":1.5,"predicted_ms":2.5}}"#
        let fast = try #require(OpenAIFastParse.completion(completion))
        let slow = try JSONDecoder().decode(OpenAIChatCompletion.self, from: Data(completion.utf8))
        #expect(fast.model == slow.model && fast.choices.count == slow.choices.count)
        #expect(fast.choices.first?.message?.content == slow.choices.first?.message?.content)
        #expect(fast.choices.first?.finishReason == slow.choices.first?.finishReason)
        #expect(fast.usage?.tokenUsage == slow.usage?.tokenUsage)
        let chunk = #"{"model":"m","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}"#
        #expect(OpenAIFastParse.chunk(chunk)?.choices?.first?.delta?.content == "Hel")
        // Unexpected types leave it to the Decodable path, which reports them.
        #expect(OpenAIFastParse.chunk(#"{"choices":[{"delta":{"content":7}}]}"#) == nil)
        #expect(OpenAIFastParse.completion(#"{"model":"m"}"#) == nil)
    }

    /// `usage` is read without `Decodable`; every shape must come out as the `Decodable` path reads it.
    @Test(arguments: [
        #"{"prompt_tokens":3,"completion_tokens":2}"#,
        #"{"prompt_tokens":3,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":1},"completion_tokens_details":{"reasoning_tokens":5}}"#,
        #"{"prompt_tokens":3,"completion_tokens":2,"prompt_tokens_details":{},"completion_tokens_details":null,"total_tokens":5}"#,
        #"{"prompt_tokens":null,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":null}}"#,
        #"{"prompt_tokens":3.0,"completion_tokens":2}"#,
    ])
    func usageMatchesJSONDecoder(usage: String) throws {
        let completion = #"{"model":"m","choices":[{"message":{"content":"x"},"finish_reason":"stop"}],"usage":\#(usage)}"#
        let fast = try #require(OpenAIFastParse.completion(completion))
        let slow = try JSONDecoder().decode(OpenAIChatCompletion.self, from: Data(completion.utf8))
        #expect(fast.usage == slow.usage)
    }

    /// Chunks of the documented shape the byte scanner reads must mean what the `Decodable` path reads.
    @Test(arguments: [
        #"{"id":"c1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}"#,
        #"{"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":" the bridge. été 👋"},"finish_reason":null}]}"#,
        #" { "model" : "m" , "choices" : [ { "index" : 0 , "delta" : { } , "finish_reason" : "stop" } ] } "#,
        #"{"id":"c1","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":7,"total_tokens":37}}"#,
        #"{"choices":[{"delta":null,"finish_reason":"length"}],"usage":null,"model":null}"#,
        #"{"choices":[{"delta":{"refusal":"no","tool_calls":null}}],"usage":{"prompt_tokens":-1,"completion_tokens":0}}"#,
        #"{}"#,
    ])
    func chunkScannerMatchesJSONDecoder(payload: String) throws {
        let fast = try #require(OpenAIByteScanner.chunk(payload))
        let slow = try JSONDecoder().decode(OpenAIChatCompletionChunk.self, from: Data(payload.utf8))
        #expect(fast.model == slow.model)
        #expect(fast.usage == slow.usage)
        #expect(fast.choices?.count == slow.choices?.count)
        for (mine, reference) in zip(fast.choices ?? [], slow.choices ?? []) {
            #expect(mine.finishReason == reference.finishReason)
            #expect(mine.delta?.content == reference.delta?.content)
            #expect(mine.delta?.refusal == reference.delta?.refusal)
            #expect((mine.delta == nil) == (reference.delta == nil))
        }
    }

    /// What the scanner cannot vouch for goes to the slower paths (nil), never to a wrong value.
    @Test(arguments: [
        #"{"choices":[{"delta":{"content":"line\nbreak"}}]}"#,
        #"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f"}}]}}]}"#,
        #"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":1}}}"#,
        #"{"choices":[],"usage":{"prompt_tokens":3.0,"completion_tokens":2}}"#,
        #"{"choices":[],"usage":{"prompt_tokens":03,"completion_tokens":2}}"#,
        #"{"choices":[],"timings":{"prompt_ms":1.5}}"#,
        #"{"error":{"message":"boom"}}"#,
        #"{"choices":[{"delta":{"content":7}}]}"#,
        #"{"model":"m"} trailing"#,
        #"{"model":"m""#,
        #"[]"#,
    ])
    func chunkScannerDefersWhatItCannotRead(payload: String) {
        #expect(OpenAIByteScanner.chunk(payload) == nil)
    }

    /// Whole answers of the documented shape the byte scanner reads must mean what the `Decodable` path reads;
    /// the rest (escapes, tool calls, timings, no `choices`) is left to the slower paths.
    @Test func completionScannerMatchesJSONDecoder() throws {
        let answers = [
            #"{"id":"bench","object":"chat.completion","model":"bench","choices":[{"index":0,"message":{"role":"assistant","content":"The council closed the bridge."},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":7,"total_tokens":37}}"#,
            #"{"model":null,"choices":[{"message":null,"finish_reason":"length"},{"message":{"content":null,"refusal":"no","tool_calls":null}}]}"#,
            #"{"choices":[]}"#,
        ]
        for answer in answers {
            let fast = try #require(OpenAIByteScanner.completion(answer), "\(answer)")
            let slow = try JSONDecoder().decode(OpenAIChatCompletion.self, from: Data(answer.utf8))
            #expect(fast.model == slow.model && fast.usage == slow.usage && fast.choices.count == slow.choices.count)
            for (mine, reference) in zip(fast.choices, slow.choices) {
                #expect(mine.finishReason == reference.finishReason)
                #expect(mine.message?.content == reference.message?.content)
                #expect(mine.message?.refusal == reference.message?.refusal)
                #expect((mine.message == nil) == (reference.message == nil))
            }
        }
        for deferred in [
            #"{"model":"m"}"#, #"{"choices":null}"#,
            #"{"choices":[{"message":{"content":"a\"b"}}]}"#,
            #"{"choices":[{"message":{"tool_calls":[{"id":"1"}]}}]}"#,
            #"{"choices":[],"timings":{"prompt_ms":1.5}}"#,
        ] {
            #expect(OpenAIByteScanner.completion(deferred) == nil, "\(deferred)")
        }
    }
}
