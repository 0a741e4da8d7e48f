import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTesting
@testable import HybridValidation
import Testing

/// Every request body is written straight to bytes (`jsonBody()`), without `JSONEncoder`: each must be valid JSON,
/// compact, with sorted keys and numbers as the canonical writer prints them, so identical requests give identical
/// bytes. The canonical text of the parsed body is exactly that, so the body must equal it.
@Suite struct RequestBodyWriterTests {
    /// Tools, an earlier call and its result, instructions, options and text needing escapes.
    static let request: GenerationRequest = {
        var request = ProviderConformance.toolRequest
        request.messages.append(.user("quote \" back \\ slash / tab\tnew\nline \u{1} caf\u{E9} \u{1F600}"))
        request.options = GenerationOptions(temperature: 0.7, maxOutputTokens: 64, seed: 3)
        return request
    }()

    static let schemaRequest: GenerationRequest = {
        var request = GenerationRequest(prompt: "x", instructions: "Only JSON.", options: GenerationOptions(sampling: .topP(0.9)))
        request.responseSchema = ["type": "object", "properties": ["n": ["type": ["integer", "null"]]], "required": ["n"]]
        return request
    }()

    static func expectCanonical(_ body: Data?, _ name: String) throws {
        let text = String(decoding: try #require(body, "\(name): no body"), as: UTF8.self)
        let parsed = try JSONValue(parsing: text)
        #expect(parsed.canonicalJSON == text, "\(name)")
    }

    @Test func everyProvidersBodyIsCanonicalJSON() throws {
        let setup = HTTPModelSetup(
            id: "m", config: TestModels.config(.ollama, model: "m", capabilities: ModelCapabilities(contextWindow: 8192)),
            settings: HTTPWireSettings(ollamaKeepAlive: "5m"))
        for request in [Self.request, Self.schemaRequest] {
            try Self.expectCanonical(OpenAIChatRequest(request, model: "m", stream: true, maxTokensField: .maxTokens).jsonBody(), "openai")
            try Self.expectCanonical(
                AnthropicMessagesRequest(request, setup: ProviderWireFormatTests.anthropic, stream: true).jsonBody(), "anthropic")
            try Self.expectCanonical(GeminiRequest(request).jsonBody(), "gemini")
            try Self.expectCanonical(OllamaChatRequest(request, setup: setup, stream: false).jsonBody(), "ollama")
        }
    }

    @Test func aNumberJSONCannotCarryIsRefusedNotWritten() {
        let request = GenerationRequest(prompt: "x", options: GenerationOptions(temperature: .nan))
        let setup = HTTPModelSetup(
            id: "m", config: TestModels.config(.ollama, model: "m", capabilities: ModelCapabilities(contextWindow: 8192)),
            settings: HTTPWireSettings())
        #expect(AnthropicMessagesRequest(request, setup: ProviderWireFormatTests.anthropic, stream: false).jsonBody() == nil)
        #expect(GeminiRequest(request).jsonBody() == nil)
        #expect(OllamaChatRequest(request, setup: setup, stream: false).jsonBody() == nil)
    }
}
