import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridValidation
import Testing

/// The one writer of Chat Completions request bodies and the one reader of answers and stream chunks (issue #30:
/// no `Codable` fallback behind them), against the documented shapes: the Chat Completions reference
/// (https://platform.openai.com/docs/api-reference/chat/create, `…/chat/object`, `…/chat-streaming`) and llama.cpp's
/// `timings` (tools/server/README.md).
@Suite struct OpenAIResponseReaderTests {
    private func body(_ request: OpenAIChatRequest) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: try #require(request.jsonBody()), as: UTF8.self))
    }

    @Test func requestBodyHasTheDocumentedShape() throws {
        let call = ToolCall(id: "call_1", name: "lookup", arguments: ["q": "Blue"])
        var request = GenerationRequest(
            instructions: "Be brief. \"Quoted\"\n\t\u{1}é/",
            messages: [.user("Hi"), .assistant(toolCalls: [call]), .toolResult(for: call, content: "found"), .user("And?")],
            options: GenerationOptions(temperature: 0.2, maxOutputTokens: 100, sampling: .topP(0.9), seed: 42),
            responseSchema: ["type": "object"], responseSchemaName: "answer")
        request.tools = [ToolDefinition(name: "lookup", description: "Finds", parameters: ["type": "object"])]
        request.toolChoice = .tool("lookup")
        let written = try body(OpenAIChatRequest(request, model: "m", stream: true, maxTokensField: .maxCompletionTokens))
        let expected: JSONValue = [
            "max_completion_tokens": 100, "model": "m", "seed": 42, "stream": true, "temperature": 0.2, "top_p": 0.9,
            "stream_options": ["include_usage": true],
            "messages": [
                ["role": "system", "content": "Be brief. \"Quoted\"\n\t\u{1}é/"],
                ["role": "user", "content": "Hi"],
                ["role": "assistant", "tool_calls": [
                    ["id": "call_1", "type": "function", "function": ["name": "lookup", "arguments": #"{"q":"Blue"}"#]],
                ]],
                ["role": "tool", "content": "found", "tool_call_id": "call_1"],
                ["role": "user", "content": "And?"],
            ],
            "response_format": ["type": "json_schema", "json_schema": ["name": "answer", "schema": ["type": "object"], "strict": true]],
            "tools": [["type": "function", "function": ["name": "lookup", "description": "Finds", "parameters": ["type": "object"]]]],
            "tool_choice": ["type": "function", "function": ["name": "lookup"]],
        ]
        #expect(written == expected)
        let plain = try body(OpenAIChatRequest(GenerationRequest(prompt: "x"), model: "m", stream: false, maxTokensField: .maxTokens))
        #expect(plain == ["model": "m", "stream": false, "messages": [["role": "user", "content": "x"]]])
        var infinite = OpenAIChatRequest(request, model: "m", stream: false, maxTokensField: .maxTokens)
        infinite.temperature = .infinity
        #expect(infinite.jsonBody() == nil)
    }

    /// The arguments text of a call is sent exactly as the model wrote it.
    @Test func requestBodyKeepsKeysSortedAndArgumentsVerbatim() throws {
        var request = GenerationRequest(prompt: "q")
        request.messages.append(.assistant(toolCalls: [ToolCall(id: "c", name: "f", argumentsText: #"{"b":1, "a":2}"#)]))
        let text = String(decoding: try #require(
            OpenAIChatRequest(request, model: "m", stream: false, maxTokensField: .maxTokens).jsonBody()), as: UTF8.self)
        #expect(text.contains(#""arguments":"{\"b\":1, \"a\":2}""#))
        #expect(text.hasPrefix(#"{"messages":[{"content":"q","role":"user"},{"role":"assistant","tool_calls":[{"function""#))
    }

    @Test func answerWithEveryMember() throws {
        let answer = #"""
            {"id":"x","object":"chat.completion","created":1,"model":"m","system_fingerprint":null,
             "choices":[{"index":0,"logprobs":{"content":[{"token":"Hi","logprob":-0.1,"bytes":[72,105]}]},
               "message":{"role":"assistant","content":"Hi \"there\"\n\u00e9\ud83d\ude00","refusal":null,"annotations":[],
                 "tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"Blue\"}"}}]},
               "finish_reason":"tool_calls"}],
             "usage":{"prompt_tokens":3,"completion_tokens":2.0,"total_tokens":5,
               "prompt_tokens_details":{"cached_tokens":1,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":5}},
             "timings":{"prompt_n":3,"prompt_ms":1.5,"predicted_n":2,"predicted_ms":2.5e0,"predicted_per_second":800}}
            """#
        let read = try #require(OpenAIResponseReader.completion(answer))
        let call = OpenAIToolCallFragment(id: "call_1", function: .init(name: "lookup", arguments: #"{"q":"Blue"}"#))
        #expect(read == OpenAIChatCompletion(
            model: "m",
            choices: [.init(message: .init(content: "Hi \"there\"\né😀", refusal: nil, toolCalls: [call]), finishReason: "tool_calls")],
            usage: OpenAIUsage(
                promptTokens: 3, completionTokens: 2, promptTokensDetails: .init(cachedTokens: 1),
                completionTokensDetails: .init(reasoningTokens: 5)),
            timings: LlamaCppTimings(promptN: 3, promptMs: 1.5, predictedN: 2, predictedMs: 2.5, predictedPerSecond: 800)))
    }

    @Test(arguments: [
        (#"{"id":"c1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}"#,
         OpenAIChatCompletionChunk(model: "gpt-4o-mini", choices: [.init(delta: .init(content: ""), finishReason: nil)])),
        (#" { "model" : "m" , "choices" : [ { "index" : 0 , "delta" : { } , "finish_reason" : "stop" } ] } "#,
         OpenAIChatCompletionChunk(model: "m", choices: [.init(delta: .init(), finishReason: "stop")])),
        (#"{"choices":[{"delta":{"content":"line\nbreak \u00e9t\u00e9 👋"}}]}"#,
         OpenAIChatCompletionChunk(choices: [.init(delta: .init(content: "line\nbreak été 👋"))])),
        (#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"c","type":"function","function":{"name":"f","arguments":""}}]}}]}"#,
         OpenAIChatCompletionChunk(choices: [.init(delta: .init(toolCalls: [.init(index: 1, id: "c", function: .init(name: "f", arguments: ""))]))])),
        (#"{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"a\""}}]}}]}"#,
         OpenAIChatCompletionChunk(choices: [.init(delta: .init(toolCalls: [.init(index: 1, function: .init(arguments: #"{"a""#))]))])),
        (#"{"id":"c1","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":7,"total_tokens":37,"prompt_tokens_details":null}}"#,
         OpenAIChatCompletionChunk(choices: [], usage: OpenAIUsage(promptTokens: 30, completionTokens: 7))),
        (#"{"choices":[],"timings":{"prompt_ms":1.5,"extra":{"nested":[1]}}}"#,
         OpenAIChatCompletionChunk(choices: [], timings: LlamaCppTimings(promptMs: 1.5))),
        (#"{"choices":[{"delta":null,"finish_reason":"length"}],"usage":null,"model":null,"timings":null,"error":null}"#,
         OpenAIChatCompletionChunk(choices: [.init(delta: nil, finishReason: "length")])),
        (#"{"error":{"code":500,"message":"boom","type":"server_error"}}"#, OpenAIChatCompletionChunk(hasError: true)),
        (#"{"mod\u0065l":"m"}"#, OpenAIChatCompletionChunk(model: "m")),
        (#"{}"#, OpenAIChatCompletionChunk()),
    ])
    func chunks(payload: String, expected: OpenAIChatCompletionChunk) {
        #expect(OpenAIResponseReader.chunk(payload) == expected)
    }

    /// Not JSON, or JSON of another shape: nil, and the adapter names the body in its error.
    @Test(arguments: [
        #"{"choices":[{"delta":{"content":7}}]}"#,
        #"{"choices":[],"usage":{"prompt_tokens":3.5,"completion_tokens":2}}"#,
        #"{"choices":[],"usage":{"prompt_tokens":03,"completion_tokens":2}}"#,
        #"{"choices":[{"delta":{"tool_calls":{"index":0}}}]}"#,
        #"{"choices":[{"delta":{"content":"\ud83d"}}]}"#,
        "{\"choices\":[{\"delta\":{\"content\":\"tab\tinside\"}}]}",
        #"{"model":"m"} trailing"#,
        #"{"model":"m""#,
        #"{"model":"m",}"#,
        #"{"model":"a","model":"b"}"#,
        #"{"choices":[],"usage":{"prompt_tokens":1,"prompt_tokens":2}}"#,
        #"[]"#,
        "",
    ])
    func chunksThatAreNotChunks(payload: String) {
        #expect(OpenAIResponseReader.chunk(payload) == nil)
    }

    @Test func answersNeedChoices() {
        #expect(OpenAIResponseReader.completion(#"{"model":"m"}"#) == nil)
        #expect(OpenAIResponseReader.completion(#"{"choices":null}"#) == nil)
        #expect(OpenAIResponseReader.completion(#"{"choices":[]}"#) == OpenAIChatCompletion(choices: []))
    }

    /// Content the model wrote comes out as the core's JSON parser reads it, whatever it holds: every string of up
    /// to three pieces (escapes, control characters, surrogate pairs, multi-byte text), written by the core's writer.
    @Test func contentMatchesTheCoreParser() throws {
        let pieces = ["a", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "€", "😀", "\u{2028}", "\\u0041"]
        var level = [""]
        var contents = [""]
        for _ in 0..<3 {
            level = level.flatMap { prefix in pieces.map { prefix + $0 } }
            contents += level
        }
        for content in contents {
            var writer = JSONTextWriter()
            writer.string(content)
            let payload = #"{"choices":[{"delta":{"content":"# + writer.text + "}}]}"
            let expected = try JSONValue(parsing: payload)["choices"]?.arrayValue?.first?["delta"]?["content"]
            #expect(OpenAIResponseReader.chunk(payload)?.choices?.first?.delta?.content.map(JSONValue.string) == expected)
        }
    }
}
