/// One model behind one provider: the seam every layer above providers programs against.
///
/// Adapters translate `GenerationRequest` into their wire format and map every provider failure onto
/// `GenerationError`, so the router can fall back without knowing which provider it talks to.
/// `generate` and `stream` throw only `GenerationError`.
public protocol LanguageModel: Sendable {
    /// Stable id from the configuration (`local-smollm2`, `openai-gpt-4o-mini`).
    var id: String { get }
    /// Human-readable name for listings.
    var displayName: String { get }
    /// Where the model runs.
    var tier: ModelTier { get }
    /// What the model can do.
    var capabilities: ModelCapabilities { get }
    /// Whether the model can serve now. May probe (a health check, an environment variable), so it is async.
    func availability() async -> ModelAvailability
    /// Gets ready to serve so the first request does not pay for it: the local llama.cpp model starts and warms its
    /// server, Foundation Models prewarms its session (Apple's `prewarm`). Cloud models have nothing to do; the
    /// default implementation returns at once. Apps call it (through `Router.prewarm(feature:)`) when a screen that
    /// will need the model appears.
    func prepare() async throws(GenerationError)
    /// One complete response.
    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse
    /// Text and tool-call deltas as they arrive, then exactly one `.completed` event with the full response (whose
    /// `toolCalls` are the assembled deltas).
    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error>
    /// The `.completed` response of `stream`, for callers that want streaming's timings (time to first token) but
    /// not its events, such as an eval's samples. The default consumes `stream`; HTTP adapters read the streamed
    /// body straight into the response, without a task and an event hand-over per delta.
    func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse
}

extension LanguageModel {
    /// Nothing to prepare: the model is ready whenever it is available.
    public func prepare() async throws(GenerationError) {}

    /// Consumes `stream` up to its `.completed` response.
    public func generateStreamed(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        do {
            for try await event in stream(request) {
                if case .completed(let response) = event { return response }
            }
        } catch let error as GenerationError {
            throw error
        } catch is CancellationError {
            throw .cancelled(model: id)
        } catch {
            throw .serverError(model: id, status: nil, detail: String(describing: error))
        }
        throw .decodingFailure(model: id, detail: "the stream ended without a final response")
    }

    /// The identity a response carries in `servedBy`.
    public var identity: ModelIdentity { ModelIdentity(id: id, tier: tier) }
}

/// One event of a streamed generation.
public enum GenerationEvent: Sendable, Equatable {
    /// New text, in order.
    case delta(String)
    /// A fragment of a tool call; ``ToolCallAssembler`` joins them, and `.completed` carries the joined calls.
    case toolCallDelta(ToolCallDelta)
    /// The end of the stream: the whole response with usage and timing. Always the last event on success.
    case completed(GenerationResponse)
}
