import Foundation
import HybridCore

/// Reads a `streamGenerateContent?alt=sse` body: each SSE `data:` is a complete `GenerateContentResponse`
/// chunk. There is no end marker; the stream is complete once a chunk carried a `finishReason`, and the last
/// chunk's `usageMetadata` has the totals.
struct GeminiStreamDecoder: WireStreamDecoder {
    private var parser = ServerSentEventParser()

    mutating func feed(_ chunk: Data, into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        var deltas: [String] = []
        for event in parser.feed(chunk) {
            let payload = event.data.trimmingCharacters(in: .whitespacesAndNewlines)
            if payload.isEmpty { continue }
            let response = try GeminiWire.read(Data(payload.utf8), what: "a stream chunk", context: context)
            let text = try GeminiWire.absorb(response, into: &result, context: context)
            if !text.isEmpty { deltas.append(text) }
        }
        return deltas
    }

    mutating func finish(into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        guard result.complete else {
            throw .serverError(model: context.modelID, status: nil, detail: "the stream ended without a finishReason; the response is incomplete")
        }
        return []
    }
}
