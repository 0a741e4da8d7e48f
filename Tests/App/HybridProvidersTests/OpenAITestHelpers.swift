import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridProviders
@testable import HybridTestSupport
@testable import HybridTesting
@testable import HybridTransport
@testable import HybridValidation

enum TestModels {
    /// A config entry of `kind` with `capabilities` in the config's fields (no prices: these tests bill nothing).
    static func config(
        _ kind: ProviderKind = .openAICompatible,
        baseURL: String? = "https://api.example.test/v1",
        model: String = "gpt-4o-mini",
        apiKeyVariable: String? = OpenAIWireFixtures.apiKeyVariable,
        capabilities: ModelCapabilities = ModelCapabilities(streaming: true, structuredOutput: true, contextWindow: 128_000),
        displayName: String? = "Test model"
    ) -> ModelConfig {
        ModelConfig(
            kind: kind, baseURL: baseURL, model: model, tier: kind == .ollama ? .onDevice : .thirdParty,
            apiKeyEnv: apiKeyVariable, pricing: ModelPricing(inputPerMillion: 0, outputPerMillion: 0),
            contextWindow: capabilities.contextWindow, maxOutputTokens: capabilities.maxOutputTokens,
            capabilities: .init(structuredOutput: capabilities.structuredOutput, streaming: capabilities.streaming),
            displayName: displayName)
    }

    static let keyedEnvironment: [String: String] = [OpenAIWireFixtures.apiKeyVariable: OpenAIWireFixtures.apiKey]

    static func model(
        _ transport: any HTTPTransport,
        config: ModelConfig = TestModels.config(),
        settings: HTTPWireSettings = HTTPWireSettings(),
        environment: [String: String] = keyedEnvironment
    ) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            id: "test-model", config: config, settings: settings, transport: transport, environment: { environment[$0] })
    }
}

extension ScriptedHTTPResponse {
    /// The fixture's status, headers and body, the body cut every `chunkSize` bytes when given.
    init(_ fixture: WireFixture, chunkSize: Int? = nil, chunkDelay: Duration? = nil) {
        let chunks = chunkSize.map { ScriptedHTTPResponse.split(fixture.body, every: $0) } ?? [fixture.body]
        self.init(status: fixture.status, headers: fixture.headers, chunks: chunks, chunkDelay: chunkDelay)
    }
}

/// Everything a stream produced, and how it ended.
struct StreamOutcome {
    var events: [GenerationEvent]
    var error: (any Error)?

    var deltas: [String] {
        events.compactMap { if case .delta(let text) = $0 { text } else { nil } }
    }

    var completed: [GenerationResponse] {
        events.compactMap { if case .completed(let response) = $0 { response } else { nil } }
    }

    var generationError: GenerationError? { error as? GenerationError }
}

func drain(_ stream: AsyncThrowingStream<GenerationEvent, any Error>) async -> StreamOutcome {
    var events: [GenerationEvent] = []
    do {
        for try await event in stream { events.append(event) }
        return StreamOutcome(events: events, error: nil)
    } catch {
        return StreamOutcome(events: events, error: error)
    }
}

/// Runs `generate` and returns its error, or nil if it succeeded.
func generationError(_ model: OpenAICompatibleModel, _ request: GenerationRequest) async -> GenerationError? {
    do {
        _ = try await model.generate(request)
        return nil
    } catch {
        return error
    }
}

/// The JSON body a recorded request carried.
func jsonBody(_ request: HTTPRequest) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: request.body ?? Data())
}
