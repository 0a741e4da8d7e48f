import Foundation
import HybridCore
import HybridTransport

/// Turns Gemini API error responses (and error objects inside a stream) into `GenerationError`.
///
/// A 429 `RESOURCE_EXHAUSTED` for a per-day quota (`quotaId` containing `PerDay`) cannot be fixed by a retry
/// loop, so it is not retryable; per-minute quotas are, after `RetryInfo.retryDelay` (or `Retry-After`).
enum GeminiErrorMapper {
    static func map(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        let parsed = GeminiErrorBody(data: body)
        let detail = parsed.map { "HTTP \(status) \($0.summary)" } ?? context.describe(status: status, body: body)
        return classify(status: status, body: parsed, detail: detail, headers: headers, context: context)
    }

    /// An error object inside a 200 stream; its `code` stands in for the status.
    static func map(streamError body: GeminiErrorBody, context: WireContext) -> GenerationError {
        classify(status: body.code, body: body, detail: "error in stream: \(body.summary)", headers: HTTPHeaders(), context: context)
    }

    private static func classify(
        status: Int?, body: GeminiErrorBody?, detail rawDetail: String, headers: HTTPHeaders, context: WireContext
    ) -> GenerationError {
        let model = context.modelID
        let detail = context.clean(rawDetail)
        let message = body?.message?.lowercased() ?? ""

        if status == 400 || status == nil,
            message.contains("input token count") || message.contains("exceeds the maximum number of tokens")
        {
            return .contextWindowExceeded(model: model, detail: detail)
        }
        if body?.reasons.contains("API_KEY_INVALID") == true || message.contains("api key not valid") {
            return context.authentication(detail: detail)
        }
        switch status {
        case 429:
            if body?.quotaIDs.contains(where: { $0.contains("PerDay") }) == true {
                return .rateLimited(model: model, retryAfter: nil, retryable: false, detail: detail)
            }
            let retryAfter = body?.retryDelay.flatMap(RetryAfter.goDuration) ?? RetryAfter.duration(from: headers, now: context.now)
            return .rateLimited(model: model, retryAfter: retryAfter, retryable: true, detail: detail)
        case 503:
            return .unavailable(model: model, reason: .other("the Gemini model is overloaded or unavailable (\(detail)); retry later or route elsewhere"))
        case 504:
            return .timeout(model: model, after: nil, phase: .total)
        default:
            return context.map(status: status, headers: headers, detail: detail)
        }
    }
}
