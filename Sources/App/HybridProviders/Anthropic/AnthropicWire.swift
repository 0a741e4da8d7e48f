import Foundation
import HybridCore
import HybridTransport

/// The Messages API wire format for `HTTPModelEngine`.
struct AnthropicWire: WireFormat {
    let setup: HTTPModelSetup

    func httpRequest(for request: GenerationRequest, stream: Bool, apiKey: String?, context: WireContext) throws(GenerationError) -> HTTPRequest {
        guard let body = AnthropicMessagesRequest(request, setup: setup, stream: stream).jsonBody() else {
            throw .invalidRequest(model: context.modelID, detail: "temperature and top_p must be finite numbers to be sent as JSON")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Accept", value: stream ? "text/event-stream" : "application/json")
        headers.add(name: "anthropic-version", value: setup.settings.anthropicVersion)
        for field in setup.settings.extraHeaders {
            headers.replaceOrAdd(name: field.name, value: field.value)
        }
        if let apiKey { headers.replaceOrAdd(name: "x-api-key", value: apiKey) }
        return HTTPRequest(method: "POST", url: setup.url(appending: "/messages"), headers: headers, body: body)
    }

    func decodeResponse(_ body: Data, request: GenerationRequest, into result: inout WireResult, context: WireContext) throws(GenerationError) {
        let message: AnthropicMessage
        do {
            message = try AnthropicMessage.readJSON(bytes: body)
        } catch {
            if let errorBody = AnthropicErrorBody(data: body) { throw AnthropicErrorMapper.map(streamError: errorBody, context: context) }
            throw context.notDecoded("the response is not a message", at: error, data: body)
        }
        let blocks = message.content ?? []
        if AnthropicMessagesRequest.usesSchemaTool(request), let tool = blocks.first(where: { $0.type == "tool_use" }) {
            result.text = StructuredOutputParser.text(of: tool.input ?? .object([:]))
        } else {
            result.text = blocks.filter { $0.type == "text" }.compactMap(\.text).joined()
            for (position, block) in blocks.filter({ $0.type == "tool_use" }).enumerated() {
                let call = ToolCall(id: block.id ?? "toolu_\(position)", name: block.name ?? "", arguments: block.input ?? [:])
                result.addToolCall(call, index: position)
            }
        }
        result.providerModel = message.model
        result.usage = message.usage?.tokenUsage
        result.finishReason = try message.stopReason.map { reason throws(GenerationError) in try Self.finishReason(reason, context: context) }
        result.complete = true
    }

    func makeStreamDecoder(for request: GenerationRequest) -> AnthropicStreamDecoder {
        AnthropicStreamDecoder(structured: AnthropicMessagesRequest.usesSchemaTool(request))
    }

    func mapError(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        AnthropicErrorMapper.map(status: status, headers: headers, body: body, context: context)
    }

    /// `stop_reason` as a finish reason; `refusal` (the model's safety classifier stopped it) is an error.
    static func finishReason(_ raw: String, context: WireContext) throws(GenerationError) -> FinishReason {
        switch raw {
        case "end_turn", "stop_sequence": return .stop
        case "max_tokens", "model_context_window_exceeded": return .length
        case "tool_use": return .toolCall
        case "refusal": throw .refusal(model: context.modelID, detail: "stop_reason refusal: the model's safety classifier stopped the response")
        default: return .other(raw)
        }
    }
}
