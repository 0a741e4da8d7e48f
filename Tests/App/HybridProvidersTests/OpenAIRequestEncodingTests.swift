import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Testing

/// Request fields as documented in the OpenAI Chat Completions reference
/// (https://platform.openai.com/docs/api-reference/chat/create): `model`, `messages`, `temperature`, `top_p`,
/// `max_tokens` / `max_completion_tokens`, `seed`, `stream`, `stream_options.include_usage`, and
/// `response_format: {"type": "json_schema", "json_schema": {"name", "schema", "strict"}}`.
@Suite("OpenAI request encoding")
struct OpenAIRequestEncodingTests {
    @Test("non-streaming body has exactly the documented fields")
    func basicBody() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
        let model = TestModels.model(transport)
        let request = GenerationRequest(
            instructions: "Be brief.",
            messages: [.user("Hi"), .assistant("Hello!"), .user("Capital of France?")],
            options: GenerationOptions(temperature: 0.7, maxOutputTokens: 100, seed: 42)
        )
        _ = try await model.generate(request)
        let sent = try #require(await transport.requests.first)
        let expected: JSONValue = [
            "model": "gpt-4o-mini",
            "messages": [
                ["role": "system", "content": "Be brief."],
                ["role": "user", "content": "Hi"],
                ["role": "assistant", "content": "Hello!"],
                ["role": "user", "content": "Capital of France?"],
            ],
            "temperature": 0.7,
            "max_tokens": 100,
            "seed": 42,
            "stream": false,
        ]
        #expect(try jsonBody(sent) == expected)
        #expect(sent.method == "POST")
        #expect(sent.url == "https://api.example.test/v1/chat/completions")
        #expect(sent.headers["Content-Type"] == "application/json")
    }

    @Test("streaming asks for usage; greedy sends temperature 0; top-p sends top_p")
    func streamingAndSampling() async throws {
        let transport = ScriptedHTTPTransport([
            ScriptedHTTPResponse(OpenAIWireFixtures.openAIStream), ScriptedHTTPResponse(OpenAIWireFixtures.openAIStream),
        ])
        let model = TestModels.model(transport)
        _ = await drain(model.stream(GenerationRequest(prompt: "x", options: GenerationOptions(temperature: 0.9, sampling: .greedy))))
        _ = await drain(model.stream(GenerationRequest(prompt: "x", options: GenerationOptions(sampling: .topP(0.5)))))
        let requests = await transport.requests
        #expect(requests.count == 2)
        #expect(
            try jsonBody(requests[0])
                == [
                    "model": "gpt-4o-mini", "messages": [["role": "user", "content": "x"]], "temperature": 0, "stream": true,
                    "stream_options": ["include_usage": true],
                ]
        )
        #expect(
            try jsonBody(requests[1])
                == [
                    "model": "gpt-4o-mini", "messages": [["role": "user", "content": "x"]], "top_p": 0.5, "stream": true,
                    "stream_options": ["include_usage": true],
                ]
        )
        #expect(requests[0].headers["Accept"] == "text/event-stream")
    }

    @Test("a response schema becomes a strict json_schema response_format")
    func schema() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.completionWithoutUsage(content: #"{"city":"Paris"}"#)))
        let schema: JSONValue = [
            "type": "object", "properties": ["city": ["type": "string"]], "required": ["city"], "additionalProperties": false,
        ]
        var request = GenerationRequest(prompt: "Where?")
        request.responseSchema = schema
        request.responseSchemaName = "city answer"
        _ = try await TestModels.model(transport).generate(request)
        let body = try jsonBody(try #require(await transport.requests.first))
        #expect(
            body["response_format"]
                == ["type": "json_schema", "json_schema": ["name": "city_answer", "schema": schema, "strict": true]]
        )
    }

    @Test("a config's maxTokensField picks the one output-limit field sent; max_tokens when it says nothing")
    func maxCompletionTokens() async throws {
        let document = try ConfigValidator.decode(Data(#"""
            {"version": 1, "models": {"o3": {"kind": "openai-compatible", "baseURL": "https://api.example.test/v1",
              "model": "o3", "tier": "third-party", "apiKeyEnv": "HYBRID_TEST_OPENAI_KEY", "maxTokensField": "max_completion_tokens",
              "pricing": {"inputPerMillion": 0, "outputPerMillion": 0}, "contextWindow": 200000,
              "capabilities": {"structuredOutput": true, "streaming": true}}},
             "features": {}}
            """#.utf8))
        let reasoning = try #require(document.models["o3"])
        #expect(reasoning.maxTokensField == .maxCompletionTokens)
        for (config, sent, absent) in [(reasoning, "max_completion_tokens", "max_tokens"), (TestModels.config(), "max_tokens", "max_completion_tokens")] {
            let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
            _ = try await TestModels.model(transport, config: config)
                .generate(GenerationRequest(prompt: "x", options: GenerationOptions(maxOutputTokens: 64)))
            let body = try jsonBody(try #require(await transport.requests.first))
            #expect(body[sent] == 64, "\(sent)")
            #expect(body[absent] == nil, "\(absent)")
        }
    }

    @Test("Authorization carries the key read through the injected environment")
    func authorizationWithKey() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
        let extra = HTTPHeaders([("OpenAI-Organization", "org-test")])
        let model = TestModels.model(
            transport, settings: HTTPWireSettings(extraHeaders: extra), environment: ["HYBRID_TEST_OPENAI_KEY": "sk-from-env"]
        )
        _ = try await model.generate(GenerationRequest(prompt: "x"))
        let sent = try #require(await transport.requests.first)
        #expect(sent.headers["Authorization"] == "Bearer sk-from-env")
        #expect(sent.headers["OpenAI-Organization"] == "org-test")
    }

    @Test("no Authorization header without a key variable, even if the environment has keys")
    func noAuthorizationWithoutVariable() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.llamaCppCompletion))
        let model = TestModels.model(
            transport, config: TestModels.config(baseURL: "http://127.0.0.1:8080/v1/", apiKeyVariable: nil)
        )
        _ = try await model.generate(GenerationRequest(prompt: "x"))
        let sent = try #require(await transport.requests.first)
        #expect(sent.headers["Authorization"] == nil)
        #expect(sent.url == "http://127.0.0.1:8080/v1/chat/completions")
    }

    @Test("a deadline caps the transport's total timeout; the configured limit stays when shorter")
    func deadlineCapsTimeout() async throws {
        let transport = ScriptedHTTPTransport([
            ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion), ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion),
        ])
        let model = TestModels.model(transport, settings: HTTPWireSettings(timeouts: HTTPTimeouts(total: .seconds(60))))
        var soon = GenerationRequest(prompt: "x")
        soon.deadline = .now + .seconds(5)
        _ = try await model.generate(soon)
        var late = GenerationRequest(prompt: "x")
        late.deadline = .now + .seconds(600)
        _ = try await model.generate(late)
        let requests = await transport.requests
        let capped = try #require(requests[0].timeouts.total)
        #expect(capped <= .seconds(5) && capped > .zero)
        #expect(requests[1].timeouts.total == .seconds(60))
    }
}
