import Foundation
import HybridCore
import HybridProviders
import HybridTestSupport
import HybridTesting
import HybridTransport

enum TestModels {
    static func configuration(
        baseURL: String = "https://api.example.test/v1",
        apiKeyVariable: String? = OpenAIWireFixtures.apiKeyVariable,
        timeouts: HTTPTimeouts = HTTPTimeouts(),
        maxTokensParameter: OpenAICompatibleModel.MaxTokensParameter = .maxTokens,
        extraHeaders: HTTPHeaders = HTTPHeaders()
    ) -> OpenAICompatibleModel.Configuration {
        OpenAICompatibleModel.Configuration(
            .openAICompatible(maxTokensParameter: maxTokensParameter),
            id: "test-model",
            displayName: "Test model",
            tier: .thirdParty,
            baseURL: baseURL,
            model: "gpt-4o-mini",
            apiKeyVariable: apiKeyVariable,
            capabilities: ModelCapabilities(streaming: true, structuredOutput: true, contextWindow: 128_000),
            timeouts: timeouts,
            extraHeaders: extraHeaders
        )
    }

    static let keyedEnvironment: [String: String] = [OpenAIWireFixtures.apiKeyVariable: OpenAIWireFixtures.apiKey]

    static func model(
        _ transport: any HTTPTransport,
        configuration: OpenAICompatibleModel.Configuration = configuration(),
        environment: [String: String] = keyedEnvironment
    ) -> OpenAICompatibleModel {
        OpenAICompatibleModel(configuration: configuration, transport: transport, environment: { environment[$0] })
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
