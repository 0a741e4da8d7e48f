import Foundation
import HybridCore
import HybridTransport

/// The Chat Completions wire format for `HTTPModelEngine`: OpenAI, llama.cpp's `llama-server`, vLLM, Ollama's `/v1`.
struct OpenAIWire: WireFormat {
    let setup: HTTPModelSetup

    func httpRequest(for request: GenerationRequest, stream: Bool, apiKey: String?, context: WireContext) throws(GenerationError) -> HTTPRequest {
        let chatRequest = OpenAIChatRequest(
            request, model: setup.model, stream: stream, maxTokensField: setup.config.maxTokensField ?? .maxTokens)
        guard let body = chatRequest.jsonBody() else {
            throw .invalidRequest(model: context.modelID, detail: "temperature and top_p must be finite numbers to be sent as JSON")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Accept", value: stream ? "text/event-stream" : "application/json")
        for field in setup.settings.extraHeaders {
            headers.replaceOrAdd(name: field.name, value: field.value)
        }
        if let apiKey { headers.replaceOrAdd(name: "Authorization", value: "Bearer \(apiKey)") }
        return HTTPRequest(method: "POST", url: setup.url(appending: "/chat/completions"), headers: headers, body: body)
    }

    func decodeResponse(_ body: Data, request: GenerationRequest, into result: inout WireResult, context: WireContext) throws(GenerationError) {
        guard let completion = String(validating: body, as: UTF8.self).flatMap(OpenAIResponseReader.completion) else {
            if let errorBody = OpenAIErrorBody(data: body) { throw OpenAIErrorMapper.map(streamError: errorBody, context: context) }
            throw context.notDecoded("the response is not a chat completion", data: body)
        }
        guard let choice = completion.choices.first else {
            throw .decodingFailure(model: context.modelID, detail: "the response has no choices")
        }
        if let refusal = choice.message?.refusal, !refusal.isEmpty {
            throw .refusal(model: context.modelID, detail: context.clean(refusal))
        }
        result.text = choice.message?.content ?? ""
        for (position, call) in (choice.message?.toolCalls ?? []).enumerated() {
            result.addToolCall(call.delta(position: position))
        }
        result.providerModel = completion.model
        result.usage = completion.usage?.tokenUsage
        completion.timings?.record(into: &result)
        result.finishReason = choice.finishReason.map(Self.finishReason)
        result.complete = true
    }

    func makeStreamDecoder(for request: GenerationRequest) -> OpenAIStreamDecoder {
        OpenAIStreamDecoder()
    }

    func mapError(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        OpenAIErrorMapper.map(status: status, headers: headers, body: body, context: context)
    }

    /// Some servers ignore `stream: true` and answer in one JSON piece; that body is decoded as a completion.
    func isCompleteResponse(streamedWith headers: HTTPHeaders) -> Bool {
        headers["Content-Type"].map { Self.containsASCIICaseInsensitive($0, "application/json") } ?? false
    }

    /// Whether `text` contains `lowercaseASCII` ignoring ASCII case (media types are ASCII and case-insensitive,
    /// RFC 9110 §8.3.1). `lowercased().contains` bridged through Foundation's `range(of:)` on every streamed
    /// response: a hundredth of a streamed eval's CPU.
    static func containsASCIICaseInsensitive(_ text: String, _ lowercaseASCII: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { haystack in
            lowercaseASCII.withUTF8Buffer { needle in
                guard haystack.count >= needle.count else { return false }
                return (0...(haystack.count - needle.count)).contains { start in
                    needle.indices.allSatisfy { offset in
                        let byte = haystack[start + offset]
                        return ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == needle[offset]
                    }
                }
            }
        }
    }

    /// `finish_reason` as a finish reason.
    static func finishReason(_ raw: String) -> FinishReason {
        switch raw {
        case "stop": .stop
        case "length": .length
        case "content_filter": .contentFilter
        case "tool_calls", "function_call": .toolCall
        default: .other(raw)
        }
    }
}
