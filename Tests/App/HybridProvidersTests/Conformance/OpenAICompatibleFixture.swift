import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation
import Logging
import Testing

/// The OpenAI-compatible adapter in the conformance suite, replaying `OpenAIWireFixtures` (sources cited there).
struct OpenAICompatibleFixture: ProviderFixture {
    var name: String { "openai-compatible" }
    var apiKey: String { OpenAIWireFixtures.apiKey }
    var apiKeyVariable: String { OpenAIWireFixtures.apiKeyVariable }

    func makeModel(baseURL: String, environment: [String: String], logger: Logger) -> any LanguageModel {
        OpenAICompatibleModel(
            id: "test-model", config: TestModels.config(baseURL: baseURL + "/v1"),
            settings: HTTPWireSettings(timeouts: ConformanceTimeouts.standard),
            transport: ConformanceSuite.transport,
            environment: { environment[$0] },
            logger: logger
        )
    }

    var plainText: WireFixture { OpenAIWireFixtures.openAICompletion }
    var plainTextExpected: ExpectedOutput {
        ExpectedOutput(
            text: "The capital of France is Paris.",
            usage: TokenUsage(promptTokens: 1117, completionTokens: 46, cachedTokens: 1024, reasoningTokens: 12),
            providerModel: "gpt-4o-mini-2024-07-18")
    }
    var stream: WireFixture { OpenAIWireFixtures.openAIStream }
    var streamExpected: ExpectedStream {
        ExpectedStream(deltas: OpenAIWireFixtures.openAIStreamDeltas, usage: TokenUsage(promptTokens: 9, completionTokens: 7))
    }

    static let personJSON = #"{"name":"Ada Lovelace","company":"Analytical Engines Ltd"}"#
    var structured: WireFixture {
        var fixture = OpenAIWireFixtures.completionWithoutUsage(content: Self.personJSON)
        fixture.name = "openai-structured"
        return fixture
    }
    var structuredStream: WireFixture {
        let pieces = [#"{"name":"Ada"#, #" Lovelace","company":"#, #""Analytical Engines Ltd"}"#]
        let chunks = pieces.map { piece in
            let escaped = String(decoding: try! JSONEncoder().encode(piece), as: UTF8.self)
            return #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"# + escaped + #"},"finish_reason":null}]}"#
        }
        return WireFixture(
            "openai-structured-stream", headers: OpenAIWireFixtures.sseHeaders,
            body: OpenAIWireFixtures.sse(
                chunks + [
                    #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
                    #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":40,"completion_tokens":14,"total_tokens":54}}"#,
                    "[DONE]",
                ]))
    }
    var streamHead: WireFixture {
        WireFixture(
            "openai-stream-head", headers: OpenAIWireFixtures.sseHeaders,
            body: OpenAIWireFixtures.sse([
                #"{"id":"c","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]}"#
            ]))
    }

    var errors: [ErrorCase] {
        let name = self.name
        return [
            ErrorCase(provider: name, name: "400 context_length_exceeded", response: OpenAIWireFixtures.openAIContextLength, expected: .contextWindowExceeded),
            ErrorCase(provider: name, name: "llama.cpp 400 exceed_context_size_error", response: OpenAIWireFixtures.llamaCppContextSize, expected: .contextWindowExceeded),
            ErrorCase(
                provider: name, name: "429 rate_limit_exceeded with Retry-After", response: OpenAIWireFixtures.rateLimitedRetryAfter,
                expected: .rateLimited, check: { $0 == .rateLimited(model: $0.model, retryAfter: .seconds(20), retryable: true, detail: Self.detail($0)) }),
            ErrorCase(
                provider: name, name: "429 insufficient_quota (not retried)", response: OpenAIWireFixtures.insufficientQuota,
                expected: .rateLimited, check: { !Self.isRetryable($0) }),
            ErrorCase(provider: name, name: "401 invalid_api_key", response: OpenAIWireFixtures.invalidAPIKey, expected: .authentication),
            ErrorCase(provider: name, name: "403 body echoing the key", response: OpenAIWireFixtures.forbiddenEchoingKey, expected: .authentication),
            ErrorCase(provider: name, name: "502 HTML echoing the key", response: OpenAIWireFixtures.badGatewayEchoingKey, expected: .serverError),
            ErrorCase(provider: name, name: "500 server_error", response: OpenAIWireFixtures.internalError, expected: .serverError),
            ErrorCase(provider: name, name: "llama.cpp 503 loading model", response: OpenAIWireFixtures.loadingModel, expected: .unavailable),
            ErrorCase(provider: name, name: "mid-stream error chunk", response: OpenAIWireFixtures.midStreamError, streaming: true, expected: .serverError),
        ]
    }

    var toolCall: WireFixture { OpenAIToolWireFixtures.toolCall }
    var toolCallStream: WireFixture { OpenAIToolWireFixtures.toolCallStream }
    var invalidToolCall: WireFixture { OpenAIToolWireFixtures.invalidToolCall }
    var toolCallID: String { OpenAIToolWireFixtures.callID }
    func verifyToolRequest(_ body: JSONValue) throws { try OpenAIToolWireFixtures.verifyToolRequest(body) }

    func verifyRequest(_ request: RecordedRequest, stream: Bool, structured: Bool) throws {
        #expect(request.pathWithoutQuery == "/v1/chat/completions")
        #expect(request.header("Authorization") == "Bearer \(apiKey)")
        let body = try JSONDecoder().decode(JSONValue.self, from: request.body)
        #expect(body["stream"] == .bool(stream))
        if structured {
            #expect(body["response_format"]?["json_schema"]?["schema"] == ConformanceSuite.personSchema)
        } else {
            #expect(body["response_format"] == nil)
        }
    }

    static func detail(_ error: GenerationError) -> String {
        error.kind == .rateLimited ? error.detail ?? "" : ""
    }

    static func isRetryable(_ error: GenerationError) -> Bool {
        error.kind == .rateLimited && error.retryable == true
    }

    static func retryAfter(_ error: GenerationError) -> Duration? {
        error.kind == .rateLimited ? error.retryAfter : nil
    }
}

/// Transfer limits for loopback fixtures: generous, so a loaded machine never trips them.
enum ConformanceTimeouts {
    static let standard = HTTPTimeouts(connect: .seconds(10), firstByte: nil, total: .seconds(60))
}
