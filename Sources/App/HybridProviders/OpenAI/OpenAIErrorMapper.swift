import Foundation
import HybridCore
import HybridTransport

/// Turns HTTP statuses, error bodies, mid-stream error chunks and transport failures into `GenerationError`.
///
/// Every detail string passes through the context's redactor, so no API key reaches an error description.
enum OpenAIErrorMapper {
    private static let quotaCodes: Set<String> = [
        "insufficient_quota", "credit_balance_exhausted", "organization_spend_limit_exceeded",
        "project_spend_limit_exceeded", "organization_usage_limit_exceeded",
    ]

    /// A non-2xx response.
    static func map(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        let parsed = OpenAIErrorBody(data: body)
        let detail = parsed.map { "HTTP \(status) \($0.summary)" } ?? context.describe(status: status, body: body)
        return classify(status: status, body: parsed, detail: detail, headers: headers, context: context)
    }

    /// A `data: {"error": …}` chunk inside a 200 stream (llama.cpp puts the would-be status in `error.code`).
    static func map(streamError body: OpenAIErrorBody, context: WireContext) -> GenerationError {
        let status = body.numericCode.flatMap { (400..<600).contains($0) ? $0 : nil }
        return classify(status: status, body: body, detail: "error in stream: \(body.summary)", headers: HTTPHeaders(), context: context)
    }

    private static func classify(
        status: Int?, body: OpenAIErrorBody?, detail rawDetail: String, headers: HTTPHeaders, context: WireContext
    ) -> GenerationError {
        let modelID = context.modelID
        let detail = context.clean(rawDetail)
        let type = body?.type?.lowercased() ?? ""
        let code = body?.code?.lowercased() ?? ""
        let message = body?.message?.lowercased() ?? ""

        if status == nil || status == 400 || status == 413, isContextOverflow(type: type, code: code, message: message) {
            var numbers = ""
            if let prompt = body?.promptTokens, let window = body?.contextSize {
                numbers = "prompt \(prompt) tokens, context window \(window) tokens; "
            }
            return .contextWindowExceeded(model: modelID, detail: numbers + detail)
        }
        switch status {
        case 429 where Self.quotaCodes.contains(type) || Self.quotaCodes.contains(code):
            return .rateLimited(model: modelID, retryAfter: nil, retryable: false, detail: detail)
        case 408:
            return .timeout(model: modelID, after: nil, phase: .total)
        case 503 where message.contains("loading model"):
            // llama.cpp answers every route with `unavailable_error` "Loading model" while it loads weights.
            return .unavailable(model: modelID, reason: .modelNotReady)
        case let status? where !(400..<600).contains(status):
            return .serverError(model: modelID, status: status, detail: "unexpected status: \(detail)")
        case nil where type.contains("authentication"):
            return context.authentication(detail: detail)
        case nil where type.contains("rate_limit") || code.contains("rate_limit"):
            return .rateLimited(model: modelID, retryAfter: nil, retryable: true, detail: detail)
        default:
            return context.map(status: status, headers: headers, detail: detail)
        }
    }

    private static func isContextOverflow(type: String, code: String, message: String) -> Bool {
        if code == "context_length_exceeded" || type == "exceed_context_size_error" { return true }
        // vLLM and older servers say so only in words.
        return message.contains("maximum context length") || message.contains("exceeds the available context size")
            || message.contains("context length exceeded")
    }
}
