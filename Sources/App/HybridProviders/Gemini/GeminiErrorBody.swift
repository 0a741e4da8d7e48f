import Foundation
import HybridCore

/// The Google API error object: `{"error": {"code", "message", "status", "details": [...]}}`.
///
/// Read from `details`: `google.rpc.QuotaFailure` violations (their `quotaId` says whether a per-minute or a
/// per-day quota ran out), `google.rpc.RetryInfo.retryDelay` (`"19s"`), and `google.rpc.ErrorInfo.reason`
/// (`API_KEY_INVALID`). Some endpoints wrap the object in a one-element array; that is accepted too.
struct GeminiErrorBody: Equatable {
    var code: Int?
    var message: String?
    var status: String?
    var quotaIDs: [String] = []
    var retryDelay: String?
    var reasons: [String] = []

    init(message: String) {
        self.message = message
    }

    init?(data: Data) {
        guard var json = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)) else { return nil }
        if let first = json.arrayValue?.first { json = first }
        self.init(json: json)
    }

    init?(json: JSONValue) {
        guard let error = json["error"]?.objectValue else { return nil }
        code = error["code"]?.intValue
        message = error["message"]?.stringValue
        status = error["status"]?.stringValue
        for detail in error["details"]?.arrayValue ?? [] {
            let type = detail["@type"]?.stringValue ?? ""
            if type.hasSuffix("google.rpc.QuotaFailure") {
                quotaIDs += (detail["violations"]?.arrayValue ?? []).compactMap { $0["quotaId"]?.stringValue }
            } else if type.hasSuffix("google.rpc.RetryInfo") {
                retryDelay = detail["retryDelay"]?.stringValue
            } else if let reason = detail["reason"]?.stringValue {
                reasons.append(reason)
            }
        }
    }

    /// `STATUS: message`, the parts that are present.
    var summary: String {
        let text = message ?? "no message"
        guard let status, !status.isEmpty else { return text }
        return "\(status): \(text)"
    }
}
