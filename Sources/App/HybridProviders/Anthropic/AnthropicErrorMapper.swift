import Foundation
import HybridCore
import HybridTransport

/// Turns Anthropic error responses and mid-stream `error` events into `GenerationError`.
///
/// Retry-ability follows the API's errors page: 429 `rate_limit_error` waits for `retry-after`; 529
/// `overloaded_error` is the whole API being busy, so the model is `.unavailable` for now; a 429 whose
/// `details.error_code` is `enforced_spend_limit_reached`, and 400s about spend limits or credit, do not go away
/// by retrying.
enum AnthropicErrorMapper {
    static func map(status: Int, headers: HTTPHeaders, body: Data, context: WireContext) -> GenerationError {
        let parsed = AnthropicErrorBody(data: body)
        let detail = parsed.map { "HTTP \(status) \($0.summary)" } ?? context.describe(status: status, body: body)
        return classify(status: status, body: parsed, detail: detail, headers: headers, context: context)
    }

    /// An `event: error` inside a 200 stream, classified by its documented status.
    static func map(streamError body: AnthropicErrorBody, context: WireContext) -> GenerationError {
        classify(status: body.documentedStatus, body: body, detail: "error in stream: \(body.summary)", headers: HTTPHeaders(), context: context)
    }

    private static func classify(
        status: Int?, body: AnthropicErrorBody?, detail rawDetail: String, headers: HTTPHeaders, context: WireContext
    ) -> GenerationError {
        let model = context.modelID
        let detail = context.clean(rawDetail)
        let message = body?.message?.lowercased() ?? ""

        if status == nil || status == 400, message.contains("prompt is too long") || message.contains("exceed context limit") {
            return .contextWindowExceeded(model: model, detail: detail)
        }
        let spendLimit = body?.errorCode == "enforced_spend_limit_reached" || message.contains("spend limit")
            || message.contains("usage limit") || message.contains("credit balance")
        if spendLimit, status == 400 || status == 402 || status == 429 {
            return .rateLimited(model: model, retryAfter: nil, retryable: false, detail: detail)
        }
        switch status {
        case 402:
            return .rateLimited(model: model, retryAfter: nil, retryable: false, detail: detail)
        case 529:
            return .unavailable(
                model: model,
                reason: .other("the Anthropic API is overloaded (\(detail)); back off and retry, or route to another model")
            )
        case 504:
            return .timeout(model: model, after: nil, phase: .total)
        default:
            return context.map(status: status, headers: headers, detail: detail)
        }
    }
}
