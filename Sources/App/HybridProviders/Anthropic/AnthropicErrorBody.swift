import Foundation
import HybridCore

/// The Anthropic error object: `{"type": "error", "error": {"type", "message", "details"?}, "request_id"}`.
///
/// The same `error` object arrives as a mid-stream `event: error`. A spend-limit 429 says so in
/// `error.details.error_code` (`enforced_spend_limit_reached`), since its `type` is `rate_limit_error` like any 429.
struct AnthropicErrorBody: Equatable {
    var type: String?
    var message: String?
    var errorCode: String?

    init(type: String? = nil, message: String?) {
        self.type = type
        self.message = message
    }

    init?(data: Data) {
        guard let json = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)), let error = json["error"]?.objectValue else {
            return nil
        }
        type = error["type"]?.stringValue
        message = error["message"]?.stringValue
        errorCode = error["details"]?["error_code"]?.stringValue
    }

    /// `type: message`, the parts that are present.
    var summary: String {
        let text = message ?? "no message"
        guard let type, !type.isEmpty else { return text }
        return "\(type): \(text)"
    }

    /// The HTTP status the API documents for each error type, for errors that arrive inside a 200 stream.
    var documentedStatus: Int? {
        switch type {
        case "invalid_request_error": 400
        case "authentication_error": 401
        case "billing_error": 402
        case "permission_error": 403
        case "not_found_error": 404
        case "request_too_large": 413
        case "rate_limit_error": 429
        case "api_error": 500
        case "timeout_error": 504
        case "overloaded_error": 529
        default: nil
        }
    }
}
