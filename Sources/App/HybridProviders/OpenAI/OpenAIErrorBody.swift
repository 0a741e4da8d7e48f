import Foundation
import HybridCore

/// The error object OpenAI-compatible servers return: `{"error": {"message", "type", "param", "code"}}`.
///
/// Also read: llama.cpp's extras (`code` as the HTTP status number, `n_prompt_tokens` and `n_ctx` on
/// `exceed_context_size_error`), vLLM's flat `{"object": "error", "message", "type", "code"}` and the
/// `{"error": "text"}` some proxies send.
struct OpenAIErrorBody: Equatable {
    var message: String?
    var type: String?
    /// `code` when it is a string (`context_length_exceeded`, `insufficient_quota`).
    var code: String?
    /// `code` when it is a number (llama.cpp and vLLM put the HTTP status there).
    var numericCode: Int?
    var param: String?
    var promptTokens: Int?
    var contextSize: Int?

    init(message: String) {
        self.message = message
    }

    init?(data: Data) {
        guard let json = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)) else { return nil }
        self.init(json: json)
    }

    init?(json: JSONValue) {
        let object: [String: JSONValue]
        if let inner = json["error"]?.objectValue {
            object = inner
        } else if let text = json["error"]?.stringValue {
            object = ["message": .string(text)]
        } else if let flat = json.objectValue, flat["message"] != nil, flat["choices"] == nil {
            object = flat
        } else {
            return nil
        }
        message = object["message"]?.stringValue
        type = object["type"]?.stringValue
        code = object["code"]?.stringValue
        numericCode = object["code"]?.intValue
        param = object["param"]?.stringValue
        promptTokens = object["n_prompt_tokens"]?.intValue
        contextSize = object["n_ctx"]?.intValue
    }

    /// `type/code: message`, the parts that are present.
    var summary: String {
        let tags = [type, code].compactMap { $0 }.filter { !$0.isEmpty }
        let text = message ?? "no message"
        return tags.isEmpty ? text : "\(tags.joined(separator: "/")): \(text)"
    }
}
