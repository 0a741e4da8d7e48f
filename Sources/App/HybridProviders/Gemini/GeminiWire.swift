import Foundation
import HybridCore
import HybridTransport

/// The Gemini API wire format for `HTTPModelEngine`.
struct GeminiWire: WireFormat {
    let setup: HTTPModelSetup

    /// Read to the end of the stream: the chunk with the finish reason is not always the one with the final usage.
    var endsAtCompletion: Bool { false }

    func httpRequest(for request: GenerationRequest, stream: Bool, apiKey: String?, context: WireContext) throws(GenerationError) -> HTTPRequest {
        guard let body = GeminiRequest(request).jsonBody() else {
            throw .invalidRequest(model: context.modelID, detail: "temperature and topP must be finite numbers to be sent as JSON")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Accept", value: stream ? "text/event-stream" : "application/json")
        for field in setup.settings.extraHeaders {
            headers.replaceOrAdd(name: field.name, value: field.value)
        }
        if let apiKey { headers.replaceOrAdd(name: "x-goog-api-key", value: apiKey) }
        return HTTPRequest(method: "POST", url: endpointURL(stream: stream), headers: headers, body: body)
    }

    func decodeResponse(_ body: Data, request: GenerationRequest, into result: inout WireResult, context: WireContext) throws(GenerationError) {
        let response = try Self.read(body, what: "the response", context: context)
        _ = try Self.absorb(response, into: &result, context: context)
        if !result.complete {
            throw .decodingFailure(model: context.modelID, detail: "the response has no candidate with a finishReason")
        }
    }

    func makeStreamDecoder(for request: GenerationRequest) -> GeminiStreamDecoder {
        GeminiStreamDecoder()
    }

    func mapError(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        GeminiErrorMapper.map(status: status, headers: headers, body: body, context: context)
    }

    /// One response or stream chunk; an error object in its place throws the mapped error, and anything else that
    /// is not a `GenerateContentResponse` a decoding failure naming the member at fault.
    static func read(_ bytes: Data, what: String, context: WireContext) throws(GenerationError) -> GeminiResponse {
        let response: GeminiResponse
        do {
            response = try GeminiResponse.readJSON(bytes: bytes)
        } catch {
            // Some endpoints wrap the error object in a one-element array, which is not a response at all.
            if let errorBody = GeminiErrorBody(data: bytes) { throw GeminiErrorMapper.map(streamError: errorBody, context: context) }
            throw context.notDecoded("\(what) is not a GenerateContentResponse", at: error, data: bytes)
        }
        if let error = response.error, let errorBody = GeminiErrorBody(json: ["error": error]) {
            throw GeminiErrorMapper.map(streamError: errorBody, context: context)
        }
        return response
    }

    /// Folds one response (or stream chunk) into `result` and returns the new answer text.
    static func absorb(_ response: GeminiResponse, into result: inout WireResult, context: WireContext) throws(GenerationError) -> String {
        if let blocked = response.promptFeedback?.blockReason, !blocked.isEmpty {
            throw .refusal(model: context.modelID, detail: "the prompt was blocked (promptFeedback.blockReason \(blocked))")
        }
        if let version = response.modelVersion, !version.isEmpty { result.providerModel = version }
        if let usage = response.usageMetadata?.tokenUsage { result.usage = usage }
        guard let candidate = response.candidates?.first else { return "" }
        let parts = (candidate.content?.parts ?? []).filter { $0.thought != true }
        let text = parts.compactMap(\.text).joined()
        result.text += text
        for call in parts.compactMap(\.functionCall) {
            let position = result.toolCalls.calls.count
            result.addToolCall(
                ToolCall(id: call.id ?? "call_\(position)", name: call.name ?? "", arguments: call.args ?? [:]), index: position)
        }
        if let reason = candidate.finishReason {
            result.finishReason = try finishReason(reason, context: context)
            result.complete = true
        }
        // Gemini reports STOP after a function call; callers look for `.toolCall`, as other providers report it.
        if result.finishReason == .stop && !result.toolCalls.isEmpty { result.finishReason = .toolCall }
        return text
    }

    /// `finishReason` as a finish reason; the content-policy reasons (SAFETY and its kin) are refusals.
    static func finishReason(_ raw: String, context: WireContext) throws(GenerationError) -> FinishReason {
        switch raw {
        case "STOP": return .stop
        case "MAX_TOKENS": return .length
        case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY":
            throw .refusal(model: context.modelID, detail: "finishReason \(raw): the response was stopped by a content filter")
        default: return .other(raw)
        }
    }

    /// `…/models/{model}:generateContent`, or `…:streamGenerateContent?alt=sse` (SSE framing instead of the
    /// default streamed JSON array). The key is never put in this URL.
    func endpointURL(stream: Bool) -> String {
        setup.url(appending: "/models/\(setup.model)" + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent"))
    }
}
