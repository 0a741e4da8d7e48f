import Foundation
import HybridCore
import HybridTransport

/// One provider's wire format: how a `GenerationRequest` becomes an HTTP request, and how responses, streams
/// and error bodies become results and `GenerationError`s.
///
/// `HTTPModelEngine` owns everything around it (API key lookup, deadlines, timing, cancellation, logging), so a
/// new HTTP provider only describes its bytes.
protocol WireFormat: Sendable {
    associatedtype StreamDecoder: WireStreamDecoder
    /// The model's id, config entry and wire settings; the engine takes its key variable, limits and timeouts from it.
    var setup: HTTPModelSetup { get }

    /// The request, with the key in whatever header the provider wants. Timeouts and body limits are set by the engine.
    func httpRequest(for request: GenerationRequest, stream: Bool, apiKey: String?, context: WireContext) throws(GenerationError) -> HTTPRequest
    /// Decodes a complete non-streaming 2xx body.
    func decodeResponse(_ body: Data, request: GenerationRequest, into result: inout WireResult, context: WireContext) throws(GenerationError)
    /// A decoder for one streamed 2xx body.
    func makeStreamDecoder(for request: GenerationRequest) -> StreamDecoder
    /// A non-2xx response.
    func mapError(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError
    /// Last look at a finished result before it is returned (Ollama's silent-truncation check).
    func validate(_ result: WireResult, request: GenerationRequest, context: WireContext) throws(GenerationError)
    /// Whether the stream is over once `WireResult.complete` is set, so the engine stops reading instead of
    /// waiting for a server that keeps the connection open.
    var endsAtCompletion: Bool { get }
    /// Whether a 2xx answer to a streaming request is in fact one complete non-streaming body (a server that
    /// ignored `stream: true`). The engine then decodes it with `decodeResponse` and delivers its text as one
    /// delta, without a time to first token.
    func isCompleteResponse(streamedWith headers: HTTPHeaders) -> Bool
    /// Whether the server is there, asked by `availability()` once the API key is known to be present. Cloud APIs
    /// are not probed (the default says `.available`); a local server often simply is not running (Ollama).
    func probe(transport: any HTTPTransport) async -> ModelAvailability
}

extension WireFormat {
    func validate(_ result: WireResult, request: GenerationRequest, context: WireContext) throws(GenerationError) {}
    var endsAtCompletion: Bool { true }
    func isCompleteResponse(streamedWith headers: HTTPHeaders) -> Bool { false }
    func probe(transport: any HTTPTransport) async -> ModelAvailability { .available }
}

/// Incremental decoder of one streamed body. Chunks may end anywhere, including inside a UTF-8 character.
protocol WireStreamDecoder: Sendable {
    /// Consumes one chunk, updates `result` (appending text to `result.text`) and returns the new text deltas in order.
    mutating func feed(_ chunk: Data, into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String]
    /// The body ended: flush what is buffered and fail if the stream was cut short.
    mutating func finish(into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String]
}
