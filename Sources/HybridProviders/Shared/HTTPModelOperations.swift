import HybridCore

/// One model's `HTTPModelEngine` behind closures, so that `HTTPLanguageModel` never names the codec type (see
/// `HTTPWireFormat` for why closures rather than an existential).
struct HTTPModelOperations: Sendable {
    let availability: @Sendable () async -> ModelAvailability
    let generate: @Sendable (GenerationRequest) async throws(GenerationError) -> GenerationResponse
    let generateStreamed: @Sendable (GenerationRequest) async throws(GenerationError) -> GenerationResponse
    let stream: @Sendable (GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error>

    init<Wire: WireFormat>(_ engine: HTTPModelEngine<Wire>) {
        availability = { await engine.availability() }
        generate = { (request) async throws(GenerationError) in try await engine.generate(request) }
        generateStreamed = { (request) async throws(GenerationError) in try await engine.generateStreamed(request) }
        stream = { engine.stream($0) }
    }
}
