import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridValidation
import Logging
import Testing

/// Ollama's native chat adapter in the conformance suite (fixtures and sources in `OllamaWireFixtures`). It is
/// configured with a bearer key (as behind an authenticating proxy) so the no-leak checks cover it too.
struct OllamaFixture: ProviderFixture {
    static let contextWindow = 2048

    var name: String { "ollama" }
    var apiKey: String { OllamaWireFixtures.apiKey }
    var apiKeyVariable: String { OllamaWireFixtures.apiKeyVariable }

    func makeModel(baseURL: String, environment: [String: String], logger: Logger) -> any LanguageModel {
        OllamaModel(
            id: "ollama-test",
            config: TestModels.config(
                .ollama, baseURL: baseURL, model: "llama3.2", apiKeyVariable: apiKeyVariable,
                capabilities: ModelCapabilities(streaming: true, structuredOutput: true, contextWindow: Self.contextWindow)),
            settings: HTTPWireSettings(timeouts: ConformanceTimeouts.standard),
            transport: ConformanceSuite.transport,
            environment: { environment[$0] },
            logger: logger)
    }

    var plainText: WireFixture { OllamaWireFixtures.response }
    var plainTextExpected: ExpectedOutput {
        ExpectedOutput(text: "Hello! How are you today?", usage: TokenUsage(promptTokens: 26, completionTokens: 298), providerModel: "llama3.2")
    }
    var stream: WireFixture { OllamaWireFixtures.stream }
    var streamExpected: ExpectedStream {
        ExpectedStream(deltas: OllamaWireFixtures.streamDeltas, usage: TokenUsage(promptTokens: 61, completionTokens: 468))
    }
    var structured: WireFixture { OllamaWireFixtures.structured }
    var structuredStream: WireFixture { OllamaWireFixtures.structuredStream }
    var streamHead: WireFixture { OllamaWireFixtures.streamHead }

    /// About 3,000 estimated tokens: well past the 2,048-token window.
    static let longRequest = GenerationRequest(
        prompt: String(repeating: "Summarise this quarterly report paragraph. ", count: 280), options: GenerationOptions(maxOutputTokens: 64))

    var errors: [ErrorCase] {
        let name = self.name
        return [
            ErrorCase(
                provider: name, name: "404 model not found", response: OllamaWireFixtures.modelNotFound, expected: .unavailable,
                check: { $0 == .unavailable(model: $0.model, reason: .notInstalled(what: "the Ollama model llama3.2", fix: "ollama pull llama3.2")) }),
            ErrorCase(provider: name, name: "400 bad request", response: OllamaWireFixtures.badRequest, expected: .invalidRequest),
            ErrorCase(provider: name, name: "500 runner terminated", response: OllamaWireFixtures.runnerCrashed, expected: .serverError),
            ErrorCase(provider: name, name: "401 body echoing the key", response: OllamaWireFixtures.unauthorizedEchoingKey, expected: .authentication),
            ErrorCase(provider: name, name: "error line mid-stream", response: OllamaWireFixtures.midStreamError, streaming: true, expected: .serverError),
            ErrorCase(
                provider: name, name: "stream ends without done", response: OllamaWireFixtures.truncatedStream, streaming: true,
                expected: .serverError),
            ErrorCase(
                provider: name, name: "prompt silently truncated to num_ctx", response: OllamaWireFixtures.silentlyTruncated,
                expected: .contextWindowExceeded, check: { $0.description.contains("silently truncated") },
                request: Self.longRequest),
        ]
    }

    var toolCall: WireFixture { OllamaToolWireFixtures.toolCall }
    var toolCallStream: WireFixture { OllamaToolWireFixtures.toolCallStream }
    var invalidToolCall: WireFixture { OllamaToolWireFixtures.invalidToolCall }
    var toolCallID: String { "call_0" }
    func verifyToolRequest(_ body: JSONValue) throws { try OllamaToolWireFixtures.verifyToolRequest(body) }

    func verifyRequest(_ request: RecordedRequest, stream: Bool, structured: Bool) throws {
        #expect(request.method == "POST")
        #expect(request.path == "/api/chat")
        #expect(request.header("Authorization") == "Bearer \(apiKey)")
        let body = try JSONDecoder().decode(JSONValue.self, from: request.body)
        #expect(body["model"] == "llama3.2")
        #expect(body["stream"] == .bool(stream))
        let messages = try #require(body["messages"]?.arrayValue)
        #expect(messages.first?["role"] == "system")
        #expect(messages.last?["role"] == "user")
        #expect(body["options"]?["num_ctx"] == .int(Self.contextWindow))
        #expect(body["options"]?["num_predict"] == 64)
        if structured {
            #expect(body["format"] == ConformanceSuite.personSchema)
        } else {
            #expect(body["format"] == nil)
        }
    }
}
