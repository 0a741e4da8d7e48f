import Foundation
import HybridCore

/// Reads an `/api/chat` NDJSON stream: one `OllamaChatResponse` per line, the last with `done: true`.
struct OllamaStreamDecoder: WireStreamDecoder {
    private var lines = NDJSONLineParser()

    mutating func feed(_ chunk: Data, into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        var deltas: [String] = []
        for line in lines.feed(chunk) {
            let text = try OllamaWire.absorb(line: line, into: &result, context: context)
            if !text.isEmpty { deltas.append(text) }
        }
        return deltas
    }

    mutating func finish(into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        var deltas: [String] = []
        if let line = lines.finish() {
            let text = try OllamaWire.absorb(line: line, into: &result, context: context)
            if !text.isEmpty { deltas.append(text) }
        }
        guard result.complete else {
            throw .serverError(model: context.modelID, status: nil, detail: "the stream ended before a `done: true` line; the response is incomplete")
        }
        return deltas
    }
}
