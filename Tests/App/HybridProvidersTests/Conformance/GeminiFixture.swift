import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridValidation
import Logging
import Testing

/// The Gemini adapter in the conformance suite (fixtures and sources in `GeminiWireFixtures`).
struct GeminiFixture: ProviderFixture {
    var name: String { "gemini" }
    var apiKey: String { GeminiWireFixtures.apiKey }
    var apiKeyVariable: String { GeminiWireFixtures.apiKeyVariable }

    func makeModel(baseURL: String, environment: [String: String], logger: Logger) -> any LanguageModel {
        GeminiModel(
            id: "gemini-test",
            config: TestModels.config(
                .gemini, baseURL: baseURL + "/v1beta", model: "gemini-2.5-flash", apiKeyVariable: apiKeyVariable,
                capabilities: ModelCapabilities(streaming: true, structuredOutput: true, contextWindow: 1_048_576)),
            settings: HTTPWireSettings(timeouts: ConformanceTimeouts.standard),
            transport: ConformanceSuite.transport,
            environment: { environment[$0] },
            logger: logger)
    }

    var plainText: WireFixture { GeminiWireFixtures.response }
    var plainTextExpected: ExpectedOutput {
        ExpectedOutput(
            text: "The capital of France is Paris.",
            usage: TokenUsage(promptTokens: 1050, completionTokens: 7 + 32, cachedTokens: 1024, reasoningTokens: 32),
            providerModel: "gemini-2.5-flash")
    }
    var stream: WireFixture { GeminiWireFixtures.stream }
    var streamExpected: ExpectedStream {
        ExpectedStream(deltas: GeminiWireFixtures.streamDeltas, usage: TokenUsage(promptTokens: 9, completionTokens: 10, reasoningTokens: 3))
    }
    var structured: WireFixture { GeminiWireFixtures.structured }
    var structuredStream: WireFixture { GeminiWireFixtures.structuredStream }
    var streamHead: WireFixture { GeminiWireFixtures.streamHead }

    var errors: [ErrorCase] {
        let name = self.name
        return [
            ErrorCase(
                provider: name, name: "429 RESOURCE_EXHAUSTED per-minute (retry after RetryInfo)", response: GeminiWireFixtures.perMinuteQuota,
                expected: .rateLimited,
                check: { OpenAICompatibleFixture.isRetryable($0) && OpenAICompatibleFixture.retryAfter($0) == .seconds(19) }),
            ErrorCase(
                provider: name, name: "429 RESOURCE_EXHAUSTED per-day (not retried)", response: GeminiWireFixtures.perDayQuota,
                expected: .rateLimited, check: { !OpenAICompatibleFixture.isRetryable($0) }),
            ErrorCase(
                provider: name, name: "400 INVALID_ARGUMENT input token count", response: GeminiWireFixtures.tokenCountExceeded,
                expected: .contextWindowExceeded),
            ErrorCase(provider: name, name: "400 API_KEY_INVALID", response: GeminiWireFixtures.invalidKey, expected: .authentication),
            ErrorCase(provider: name, name: "400 message echoing the key", response: GeminiWireFixtures.badArgumentEchoingKey, expected: .invalidRequest),
            ErrorCase(provider: name, name: "503 UNAVAILABLE overloaded", response: GeminiWireFixtures.overloaded, expected: .unavailable),
            ErrorCase(provider: name, name: "500 INTERNAL", response: GeminiWireFixtures.internalError, expected: .serverError),
            ErrorCase(provider: name, name: "finishReason SAFETY", response: GeminiWireFixtures.safetyFinish, expected: .refusal),
            ErrorCase(provider: name, name: "promptFeedback.blockReason", response: GeminiWireFixtures.promptBlocked, expected: .refusal),
            ErrorCase(provider: name, name: "SAFETY mid-stream", response: GeminiWireFixtures.safetyMidStream, streaming: true, expected: .refusal),
        ]
    }

    var toolCall: WireFixture { GeminiToolWireFixtures.toolCall }
    var toolCallStream: WireFixture { GeminiToolWireFixtures.toolCallStream }
    var invalidToolCall: WireFixture { GeminiToolWireFixtures.invalidToolCall }
    var toolCallID: String { "call_0" }
    func verifyToolRequest(_ body: JSONValue) throws { try GeminiToolWireFixtures.verifyToolRequest(body) }

    func verifyRequest(_ request: RecordedRequest, stream: Bool, structured: Bool) throws {
        #expect(request.method == "POST")
        #expect(request.path == (stream
            ? "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
            : "/v1beta/models/gemini-2.5-flash:generateContent"))
        // The key travels in a header only: never in the URL, where logs and proxies would keep it.
        #expect(request.header("x-goog-api-key") == apiKey)
        #expect(!request.path.contains(apiKey) && !request.path.contains("key="))
        let body = try JSONDecoder().decode(JSONValue.self, from: request.body)
        let first = try #require(body["contents"]?.arrayValue?.first)
        #expect(first["role"] == "user")
        let config = try #require(body["generationConfig"])
        #expect(config["maxOutputTokens"] == 64)
        if structured {
            #expect(body["systemInstruction"] == ["parts": [["text": "Extract the person."]]])
            #expect(config["responseMimeType"] == "application/json")
            #expect(config["responseSchema"] == [
                "type": "OBJECT",
                "properties": ["name": ["type": "STRING"], "company": ["type": "STRING"]],
                "required": ["name", "company"],
                "propertyOrdering": ["name", "company"],  // declaration order: Gemini would go alphabetically
            ])
        } else {
            #expect(body["systemInstruction"] == ["parts": [["text": "Answer in one short sentence."]]])
            #expect(config["temperature"] == 0.2)
            #expect(config["responseSchema"] == nil)
        }
    }
}
