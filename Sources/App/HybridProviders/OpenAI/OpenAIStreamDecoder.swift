import Foundation
import HybridCore

/// Reads a Chat Completions SSE stream: `chat.completion.chunk` payloads, then `data: [DONE]`.
///
/// `[DONE]` sets `WireResult.complete`; a stream that ends without it is still whole when a chunk carried a
/// finish reason (some servers close without `[DONE]`), and incomplete (`.serverError`) otherwise. Refusal
/// deltas are collected and fail the stream with `.refusal` at its end. A `data: {"error": …}` chunk or an
/// `error` event fails the stream with the mapped error.
struct OpenAIStreamDecoder: WireStreamDecoder {
    private var parser = ServerSentEventParser()
    private var refusal = ""
    /// An error that arrived in the same chunk as text: the text is delivered first, then `finish` throws it.
    private var pendingError: GenerationError?

    mutating func feed(_ chunk: Data, into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        var deltas: [String] = []
        for event in parser.feed(chunk) {
            // Nothing follows [DONE] or an error.
            if result.complete { break }
            do {
                try handle(event, into: &result, deltas: &deltas, context: context)
            } catch {
                if deltas.isEmpty { throw error }
                pendingError = error
                // Makes the engine stop reading and call `finish`, which throws the error.
                result.complete = true
            }
        }
        return deltas
    }

    mutating func finish(into result: inout WireResult, context: WireContext) throws(GenerationError) -> [String] {
        if let pendingError { throw pendingError }
        if !refusal.isEmpty {
            throw .refusal(model: context.modelID, detail: context.clean(refusal))
        }
        guard result.complete || result.finishReason != nil else {
            throw .serverError(
                model: context.modelID, status: nil,
                detail: "the stream ended before `data: [DONE]` and without a finish reason; the response is incomplete"
            )
        }
        return []
    }

    /// False only for a byte that cannot start or end white space: ASCII other than space and controls.
    private static func mayBePadded(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte <= 0x20 || byte >= 0x80
    }

    private mutating func handle(
        _ event: ServerSentEvent, into result: inout WireResult, deltas: inout [String], context: WireContext
    ) throws(GenerationError) {
        // Trimming bridges through NSString; a payload without white space at either end (every server's) is
        // left as it is. Looked at as bytes: `Character.isWhitespace` reads Unicode tables, six times an answer.
        let padded = Self.mayBePadded(event.data.utf8.first) || Self.mayBePadded(event.data.utf8.last)
        let payload = padded ? event.data.trimmingCharacters(in: .whitespaces) : event.data
        if payload == "[DONE]" {
            result.complete = true
            return
        }
        if payload.isEmpty { return }
        if event.type == "error" {
            throw OpenAIErrorMapper.map(
                streamError: OpenAIErrorBody(data: Data(payload.utf8)) ?? OpenAIErrorBody(message: payload), context: context)
        }
        guard let chunk = OpenAIResponseReader.chunk(payload) else {
            throw context.notDecoded("a stream event is not a chat completion chunk", text: payload)
        }
        if chunk.hasError, let body = OpenAIErrorBody(data: Data(payload.utf8)) {
            throw OpenAIErrorMapper.map(streamError: body, context: context)
        }
        if let model = chunk.model, !model.isEmpty { result.providerModel = model }
        if let usage = chunk.usage { result.usage = usage.tokenUsage }
        chunk.timings?.record(into: &result)
        guard let choice = chunk.choices?.first else { return }
        if let content = choice.delta?.content, !content.isEmpty {
            result.text += content
            deltas.append(content)
        }
        if let refusal = choice.delta?.refusal { self.refusal += refusal }
        for (position, fragment) in (choice.delta?.toolCalls ?? []).enumerated() {
            result.addToolCall(fragment.delta(position: position))
        }
        if let reason = choice.finishReason { result.finishReason = OpenAIWire.finishReason(reason) }
    }
}
