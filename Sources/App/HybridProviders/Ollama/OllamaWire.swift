import Foundation
import HybridCore
import HybridTransport

/// Ollama's native chat wire format for `HTTPModelEngine`.
struct OllamaWire: WireFormat {
    let setup: HTTPModelSetup

    func httpRequest(for request: GenerationRequest, stream: Bool, apiKey: String?, context: WireContext) throws(GenerationError) -> HTTPRequest {
        guard let body = OllamaChatRequest(request, setup: setup, stream: stream).jsonBody() else {
            throw .invalidRequest(model: context.modelID, detail: "temperature and top_p must be finite numbers to be sent as JSON")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Accept", value: stream ? "application/x-ndjson" : "application/json")
        if let apiKey { headers.add(name: "Authorization", value: "Bearer \(apiKey)") }
        return HTTPRequest(method: "POST", url: setup.url(appending: "/api/chat"), headers: headers, body: body)
    }

    func decodeResponse(_ body: Data, request: GenerationRequest, into result: inout WireResult, context: WireContext) throws(GenerationError) {
        _ = try Self.absorb(line: body, into: &result, context: context)
        if !result.complete {
            throw .decodingFailure(model: context.modelID, detail: "the response is not a finished chat response (no `done: true`)")
        }
    }

    func makeStreamDecoder(for request: GenerationRequest) -> OllamaStreamDecoder {
        OllamaStreamDecoder()
    }

    func mapError(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        OllamaErrorMapper.map(status: status, headers: headers, body: body, model: setup.model, context: context)
    }

    /// Asks the server for `GET /api/version` within a second or two (see `OllamaModel`).
    func probe(transport: any HTTPTransport) async -> ModelAvailability {
        let base = setup.url(appending: "")
        let probe = HTTPRequest(url: base + "/api/version", timeouts: HTTPTimeouts(connect: .seconds(1), firstByte: .seconds(1), total: .seconds(2)))
        do {
            let (response, _) = try await transport.send(probe)
            return response.status == 200
                ? .available : .unavailable(.unreachable("\(base)/api/version answered \(response.status)"))
        } catch {
            return .unavailable(.unreachable("no Ollama server at \(base) (start it with `ollama serve`)"))
        }
    }

    /// Fails a response whose prompt Ollama silently truncated (see `OllamaModel`).
    func validate(_ result: WireResult, request: GenerationRequest, context: WireContext) throws(GenerationError) {
        guard let usage = result.usage, !usage.isEstimated else { return }
        let window = setup.capabilities.contextWindow
        let estimate = TokenEstimator.estimate(HTTPModelEngine<Self>.promptText(request))
        if Self.looksTruncated(promptEvalCount: usage.promptTokens, estimate: estimate, window: window) {
            throw .contextWindowExceeded(
                model: context.modelID,
                detail: "Ollama evaluated \(usage.promptTokens) prompt tokens, but the prompt is about \(estimate) tokens, more than num_ctx \(window): Ollama silently truncated it"
            )
        }
    }

    /// True when the counts say the prompt did not fit and Ollama cut it: the estimate exceeds the window while
    /// the evaluated count is within the window and clearly below the estimate.
    static func looksTruncated(promptEvalCount: Int, estimate: Int, window: Int) -> Bool {
        estimate > window && promptEvalCount <= window && Double(promptEvalCount) < Double(estimate) * 0.9
    }

    /// Folds one JSON object into `result` and returns its new text.
    static func absorb(line: Data, into result: inout WireResult, context: WireContext) throws(GenerationError) -> String {
        let response: OllamaChatResponse
        do {
            response = try OllamaChatResponse.readJSON(bytes: line)
        } catch {
            throw context.notDecoded("a line is not an Ollama chat response", at: error, root: "line", data: line)
        }
        if let error = response.error { throw OllamaErrorMapper.map(streamError: error, context: context) }
        if let model = response.model, !model.isEmpty { result.providerModel = model }
        let text = response.message?.content ?? ""
        result.text += text
        for call in response.message?.toolCalls ?? [] {
            let position = result.toolCalls.calls.count
            let toolCall = ToolCall(
                id: call.id ?? "call_\(position)", name: call.function?.name ?? "", arguments: call.function?.arguments ?? [:])
            result.addToolCall(toolCall, index: position)
        }
        if response.done == true {
            result.complete = true
            result.usage = response.tokenUsage
            result.decodeTokensPerSecond = response.decodeTokensPerSecond
            result.finishReason = switch response.doneReason {
            case "stop": .stop
            case "length": .length
            case let other?: .other(other)
            case nil: .stop
            }
            // Ollama says "stop" after a tool call; callers look for `.toolCall`, as other providers report it.
            if result.finishReason == .stop && !result.toolCalls.isEmpty { result.finishReason = .toolCall }
        }
        return text
    }
}
