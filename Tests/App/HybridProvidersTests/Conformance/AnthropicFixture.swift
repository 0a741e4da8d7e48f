import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridValidation
import Logging
import Testing

/// The Anthropic Messages adapter in the conformance suite (fixtures and sources in `AnthropicWireFixtures`).
struct AnthropicFixture: ProviderFixture {
    var name: String { "anthropic" }
    var apiKey: String { AnthropicWireFixtures.apiKey }
    var apiKeyVariable: String { AnthropicWireFixtures.apiKeyVariable }

    func makeModel(baseURL: String, environment: [String: String], logger: Logger) -> any LanguageModel {
        AnthropicModel(
            id: "anthropic-test",
            config: TestModels.config(
                .anthropic, baseURL: baseURL + "/v1", model: "claude-3-5-haiku-latest", apiKeyVariable: apiKeyVariable,
                capabilities: ModelCapabilities(streaming: true, structuredOutput: true, contextWindow: 200_000, maxOutputTokens: 8192)),
            settings: HTTPWireSettings(timeouts: ConformanceTimeouts.standard),
            transport: ConformanceSuite.transport,
            environment: { environment[$0] },
            logger: logger)
    }

    var plainText: WireFixture { AnthropicWireFixtures.message }
    var plainTextExpected: ExpectedOutput {
        ExpectedOutput(
            text: "The capital of France is Paris.",
            usage: TokenUsage(promptTokens: 12 + 2048 + 1024, completionTokens: 9, cachedTokens: 1024, cacheCreationTokens: 2048),
            providerModel: "claude-3-5-haiku-20241022")
    }
    var stream: WireFixture { AnthropicWireFixtures.stream }
    var streamExpected: ExpectedStream {
        ExpectedStream(deltas: AnthropicWireFixtures.streamDeltas, usage: TokenUsage(promptTokens: 25, completionTokens: 15))
    }
    var structured: WireFixture { AnthropicWireFixtures.toolUseMessage }
    var structuredStream: WireFixture { AnthropicWireFixtures.toolUseStream }
    var streamHead: WireFixture { AnthropicWireFixtures.streamHead }

    var errors: [ErrorCase] {
        let name = self.name
        return [
            ErrorCase(
                provider: name, name: "429 rate_limit_error with retry-after", response: AnthropicWireFixtures.rateLimited,
                expected: .rateLimited,
                check: { OpenAICompatibleFixture.isRetryable($0) && OpenAICompatibleFixture.retryAfter($0) == .seconds(30) }),
            ErrorCase(
                provider: name, name: "429 spend limit (not retried)", response: AnthropicWireFixtures.spendLimit,
                expected: .rateLimited, check: { !OpenAICompatibleFixture.isRetryable($0) }),
            ErrorCase(provider: name, name: "529 overloaded_error", response: AnthropicWireFixtures.overloaded, expected: .unavailable),
            ErrorCase(
                provider: name, name: "400 prompt is too long", response: AnthropicWireFixtures.promptTooLong,
                expected: .contextWindowExceeded, check: { $0.description.contains("208310 tokens > 200000") }),
            ErrorCase(provider: name, name: "401 authentication_error", response: AnthropicWireFixtures.invalidKey, expected: .authentication),
            ErrorCase(provider: name, name: "403 body echoing the key", response: AnthropicWireFixtures.forbiddenEchoingKey, expected: .authentication),
            ErrorCase(provider: name, name: "500 api_error", response: AnthropicWireFixtures.apiError, expected: .serverError),
            ErrorCase(provider: name, name: "stop_reason refusal", response: AnthropicWireFixtures.refusal, expected: .refusal),
            ErrorCase(
                provider: name, name: "mid-stream error event (overloaded)", response: AnthropicWireFixtures.midStreamOverloaded,
                streaming: true, expected: .unavailable),
            ErrorCase(
                provider: name, name: "stream ends without message_stop", response: AnthropicWireFixtures.truncatedStream,
                streaming: true, expected: .serverError),
        ]
    }

    var toolCall: WireFixture { AnthropicToolWireFixtures.toolCall }
    var toolCallStream: WireFixture { AnthropicToolWireFixtures.toolCallStream }
    var invalidToolCall: WireFixture { AnthropicToolWireFixtures.invalidToolCall }
    var toolCallID: String { AnthropicToolWireFixtures.callID }
    func verifyToolRequest(_ body: JSONValue) throws { try AnthropicToolWireFixtures.verifyToolRequest(body) }

    func verifyRequest(_ request: RecordedRequest, stream: Bool, structured: Bool) throws {
        #expect(request.method == "POST")
        #expect(request.path == "/v1/messages")
        #expect(request.header("x-api-key") == apiKey)
        #expect(request.header("anthropic-version") == "2023-06-01")
        #expect(request.header("Authorization") == nil)
        let body = try JSONDecoder().decode(JSONValue.self, from: request.body)
        #expect(body["model"] == "claude-3-5-haiku-latest")
        #expect(body["max_tokens"] == 64)
        if stream {
            #expect(body["stream"] == true)
        } else {
            #expect(body["stream"] == nil)
        }
        let first = try #require(body["messages"]?.arrayValue?.first)
        #expect(first["role"] == "user")
        if structured {
            #expect(body["system"] == "Extract the person.")
            let tool = try #require(body["tools"]?.arrayValue?.first)
            #expect(tool["name"] == "person")
            #expect(tool["input_schema"] == ConformanceSuite.personSchema)
            #expect(body["tool_choice"] == ["type": "tool", "name": "person"])
        } else {
            #expect(body["system"] == "Answer in one short sentence.")
            #expect(body["temperature"] == 0.2)
            #expect(body["tools"] == nil)
        }
    }
}
