import Foundation
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Testing

@Suite("OpenAICompatibleModel responses")
struct OpenAICompatibleModelTests {
    // MARK: Non-streaming

    @Test("OpenAI completion: text, provider model, usage with cached and reasoning tokens, no TTFT")
    func openAICompletion() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion, chunkSize: 50))
        let response = try await TestModels.model(transport).generate(GenerationRequest(prompt: "Capital of France?"))
        #expect(response.text == "The capital of France is Paris.")
        #expect(response.providerModel == "gpt-4o-mini-2024-07-18")
        #expect(response.servedBy == ModelIdentity(id: "test-model", tier: .thirdParty))
        #expect(response.usage == TokenUsage(promptTokens: 1117, completionTokens: 46, cachedTokens: 1024, reasoningTokens: 12))
        #expect(response.finishReason == .stop)
        #expect(response.structured == nil)
        #expect(response.timing.timeToFirstToken == nil)
        #expect(response.timing.decodeTokensPerSecond == nil)
        #expect(response.timing.total > .zero)
    }

    @Test("a streamed request answered with a whole JSON completion (any case of the media type) is read as one")
    func streamedRequestAnsweredWithJSON() async throws {
        var fixture = OpenAIWireFixtures.openAICompletion
        fixture.headerFields = [HTTPHeaders.Field(name: "content-type", value: "Application/JSON; charset=utf-8")]
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(fixture))
        let response = try await TestModels.model(transport).generateStreamed(GenerationRequest(prompt: "Capital of France?"))
        #expect(response.text == "The capital of France is Paris.")
        #expect(response.finishReason == .stop)
    }

    @Test("llama.cpp completion: decode speed from timings.predicted_per_second")
    func llamaCppCompletion() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.llamaCppCompletion))
        let response = try await TestModels.model(transport).generate(GenerationRequest(prompt: "x"))
        #expect(response.text == "Paris is the capital")
        #expect(response.finishReason == .length)
        #expect(response.usage == TokenUsage(promptTokens: 31, completionTokens: 4))
        #expect(response.timing.decodeTokensPerSecond == 120.8)
        #expect(response.providerModel == "SmolLM2-135M-Instruct")
    }

    @Test("missing usage is estimated and flagged")
    func estimatedUsage() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.completionWithoutUsage(content: "Twelve characters long")))
        let response = try await TestModels.model(transport).generate(GenerationRequest(prompt: "0123456789abcdef"))
        #expect(response.usage.isEstimated)
        #expect(response.usage.promptTokens == 4)
        #expect(response.usage.completionTokens == TokenEstimator.estimate("Twelve characters long"))
    }

    @Test("message.refusal becomes GenerationError.refusal")
    func refusal() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.refusalCompletion))
        let error = await generationError(TestModels.model(transport), GenerationRequest(prompt: "x"))
        guard let error, error.kind == .refusal, let detail = error.detail else {
            Issue.record("expected refusal, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("cannot assist"))
    }

    @Test(
        "finish_reason values map to FinishReason",
        arguments: [
            ("stop", FinishReason.stop), ("length", .length), ("content_filter", .contentFilter), ("tool_calls", .toolCall),
            ("eos_token", .other("eos_token")),
        ]
    )
    func finishReasons(raw: String, expected: FinishReason) async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.completionWithoutUsage(content: "x", finishReason: raw)))
        let response = try await TestModels.model(transport).generate(GenerationRequest(prompt: "x"))
        #expect(response.finishReason == expected)
    }

    @Test("a body that is not a chat completion is a decoding failure")
    func garbageBody() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(status: 200, body: Data("<html>hello</html>".utf8)))
        let error = await generationError(TestModels.model(transport), GenerationRequest(prompt: "x"))
        #expect(error?.kind == .decodingFailure)
    }

    // MARK: Structured output

    private func structuredRequest() -> GenerationRequest {
        var request = GenerationRequest(prompt: "Where?")
        request.responseSchema = ["type": "object", "properties": ["city": ["type": "string"]]]
        return request
    }

    @Test("structured output is parsed into JSONValue (a Markdown fence is tolerated)", arguments: [
        #"{"city":"Paris","n":3}"#, "```json\n{\"city\":\"Paris\",\"n\":3}\n```",
    ])
    func structuredOutput(text: String) async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.completionWithoutUsage(content: text)))
        let response = try await TestModels.model(transport).generate(structuredRequest())
        #expect(response.structured == ["city": "Paris", "n": 3])
        #expect(response.text == text)
    }

    @Test("structured output that is not JSON keeps the text and leaves structured nil for the caller to score")
    func structuredOutputInvalid() async throws {
        let text = "Sure! The city is Paris."
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.completionWithoutUsage(content: text)))
        let response = try await TestModels.model(transport).generate(structuredRequest())
        #expect(response.text == text)
        #expect(response.structured == nil)
    }

    // MARK: Streaming

    @Test("OpenAI stream: deltas in order, then exactly one completed with the usage chunk's counts", arguments: [nil, 1, 7, 64])
    func openAIStream(chunkSize: Int?) async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAIStream, chunkSize: chunkSize))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.error == nil)
        #expect(outcome.deltas == OpenAIWireFixtures.openAIStreamDeltas)
        #expect(outcome.completed.count == 1)
        guard case .completed(let response)? = outcome.events.last else {
            Issue.record("the last event is not .completed")
            return
        }
        #expect(response.text == OpenAIWireFixtures.openAIStreamDeltas.joined())
        #expect(response.usage == TokenUsage(promptTokens: 9, completionTokens: 7))
        #expect(response.finishReason == .stop)
        #expect(response.providerModel == "gpt-4o-mini-2024-07-18")
        let ttft = try #require(response.timing.timeToFirstToken)
        #expect(ttft <= response.timing.total)
    }

    @Test("TTFT is taken at the first content delta, before the rest of the body arrives")
    func streamTimingOrder() async throws {
        let transport = ScriptedHTTPTransport(
            ScriptedHTTPResponse(OpenAIWireFixtures.openAIStream, chunkSize: 300, chunkDelay: .milliseconds(20))
        )
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        let response = try #require(outcome.completed.first)
        let ttft = try #require(response.timing.timeToFirstToken)
        // Several delayed chunks follow the first delta, so TTFT must be strictly earlier than the end.
        #expect(ttft < response.timing.total)
        let rate = try #require(response.timing.decodeTokensPerSecond)
        #expect(rate > 0)
    }

    @Test("llama.cpp stream: timings on the last chunk give the decode speed")
    func llamaCppStream() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.llamaCppStream, chunkSize: 13))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.error == nil)
        #expect(outcome.deltas == OpenAIWireFixtures.llamaCppStreamDeltas)
        let response = try #require(outcome.completed.first)
        #expect(response.usage == TokenUsage(promptTokens: 28, completionTokens: 5))
        #expect(response.timing.decodeTokensPerSecond == 120.2)
        #expect(response.providerModel == "SmolLM2-135M-Instruct")
        #expect(response.text == "The sky is blue.")
    }

    @Test("a mid-stream error chunk ends the stream with the mapped error after the earlier deltas")
    func midStreamError() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.midStreamError))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas == ["Partial"])
        #expect(outcome.completed.isEmpty)
        guard let error = outcome.generationError, error.kind == .serverError, let detail = error.detail else {
            Issue.record("expected serverError, got \(String(describing: outcome.error))")
            return
        }
        #expect(error.status == 500)
        #expect(detail.contains("slot was released"))
    }

    @Test("a stream cut before [DONE] and before any finish reason is a server error, not a completion")
    func truncatedStream() async throws {
        let body = OpenAIWireFixtures.sse([
            #"{"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}"#
        ])
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8)))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas == ["Hel"])
        #expect(outcome.completed.isEmpty)
        #expect(outcome.generationError?.kind == .serverError)
    }

    @Test("a stream with a finish reason but no [DONE] still completes, with estimated usage")
    func streamWithoutDone() async throws {
        let body = OpenAIWireFixtures.sse([
            #"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}"#,
        ])
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8)))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        let response = try #require(outcome.completed.first)
        #expect(response.finishReason == .length)
        #expect(response.usage.isEstimated)
        #expect(response.timing.decodeTokensPerSecond == nil)
    }

    @Test("a streamed refusal becomes GenerationError.refusal")
    func streamedRefusal() async throws {
        let body = OpenAIWireFixtures.sse([
            #"{"choices":[{"index":0,"delta":{"refusal":"I can't"},"finish_reason":null}]}"#,
            #"{"choices":[{"index":0,"delta":{"refusal":" help with that."},"finish_reason":"stop"}]}"#, "[DONE]",
        ])
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8)))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.generationError == .refusal(model: "test-model", detail: "I can't help with that."))
    }

    @Test("a server that ignores stream:true and answers JSON still yields one delta and one completed")
    func streamAnsweredWithJSON() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
        let outcome = await drain(TestModels.model(transport).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas == ["The capital of France is Paris."])
        #expect(outcome.completed.first?.usage.cachedTokens == 1024)
    }

    @Test("a model configured without streaming serves stream() from the non-streaming endpoint")
    func streamWithoutStreamingCapability() async throws {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
        var config = TestModels.config()
        config.capabilities.streaming = false
        let outcome = await drain(TestModels.model(transport, config: config).stream(GenerationRequest(prompt: "x")))
        #expect(outcome.deltas == ["The capital of France is Paris."])
        #expect(outcome.completed.count == 1)
        let body = try jsonBody(try #require(await transport.requests.first))
        #expect(body["stream"] == false)
    }

    @Test("streamed structured output is parsed at completion")
    func streamedStructured() async throws {
        let body = OpenAIWireFixtures.sse([
            #"{"choices":[{"index":0,"delta":{"content":"{\"city\":"},"finish_reason":null}]}"#,
            #"{"choices":[{"index":0,"delta":{"content":"\"Paris\"}"},"finish_reason":"stop"}]}"#, "[DONE]",
        ])
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8)))
        var request = GenerationRequest(prompt: "x")
        request.responseSchema = ["type": "object"]
        let outcome = await drain(TestModels.model(transport).stream(request))
        #expect(outcome.completed.first?.structured == ["city": "Paris"])
    }

    // MARK: Availability, keys, deadlines, cancellation

    @Test("availability: missing or empty key variable is missingAPIKey; set or not required is available")
    func availability() async {
        let transport = ScriptedHTTPTransport([])
        let missing = TestModels.model(transport, environment: [:])
        #expect(await missing.availability() == .unavailable(.missingAPIKey(variable: OpenAIWireFixtures.apiKeyVariable)))
        let empty = TestModels.model(transport, environment: [OpenAIWireFixtures.apiKeyVariable: "  "])
        #expect(await empty.availability() == .unavailable(.missingAPIKey(variable: OpenAIWireFixtures.apiKeyVariable)))
        #expect(await TestModels.model(transport).availability() == .available)
        let local = TestModels.model(transport, config: TestModels.config(apiKeyVariable: nil), environment: [:])
        #expect(await local.availability() == .available)
        #expect(await transport.requests.isEmpty)
    }

    @Test("a missing key fails generate and stream with unavailable(missingAPIKey) before any request")
    func missingKeyFailsFast() async {
        let transport = ScriptedHTTPTransport([])
        let model = TestModels.model(transport, environment: [:])
        let expected = GenerationError.unavailable(model: "test-model", reason: .missingAPIKey(variable: OpenAIWireFixtures.apiKeyVariable))
        #expect(await generationError(model, GenerationRequest(prompt: "x")) == expected)
        #expect(await drain(model.stream(GenerationRequest(prompt: "x"))).generationError == expected)
        #expect(await transport.requests.isEmpty)
    }

    @Test("a deadline already passed fails with timeout(.deadline) and sends nothing")
    func pastDeadline() async {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
        let model = TestModels.model(transport)
        var request = GenerationRequest(prompt: "x")
        request.deadline = .now - .milliseconds(1)
        let expected = GenerationError.timeout(model: "test-model", after: nil, phase: .deadline)
        #expect(await generationError(model, request) == expected)
        #expect(await drain(model.stream(request)).generationError == expected)
        #expect(await transport.requests.isEmpty)
    }

    @Test("a cancelled task fails with .cancelled and sends nothing")
    func cancelledBeforeStart() async {
        let transport = ScriptedHTTPTransport(ScriptedHTTPResponse(OpenAIWireFixtures.openAICompletion))
        let model = TestModels.model(transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await generationError(model, GenerationRequest(prompt: "x"))
        }
        #expect(await task.value == .cancelled(model: "test-model"))
        #expect(await transport.requests.isEmpty)
    }

    @Test("cancelling the consumer mid-stream cancels the transfer and no completed event is delivered")
    func cancelMidStream() async throws {
        let transport = ScriptedHTTPTransport(
            ScriptedHTTPResponse(OpenAIWireFixtures.openAIStream, chunkSize: 40, chunkDelay: .milliseconds(30))
        )
        let model = TestModels.model(transport)
        let consumer = Task {
            var seen: [GenerationEvent] = []
            for try await event in model.stream(GenerationRequest(prompt: "x")) {
                seen.append(event)
                if case .delta = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return seen
        }
        let seen = try await consumer.value
        #expect(!seen.contains { if case .completed = $0 { true } else { false } })
        // Cancellation must reach the transport's body stream; poll for it (generous bound, no timing assertion).
        for _ in 0..<500 where await transport.cancelledBodies == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await transport.cancelledBodies == 1)
    }
}
