import Foundation
import HybridCore
import HybridTransport

/// Turns Ollama's `{"error": "…"}` responses and error lines into `GenerationError`.
enum OllamaErrorMapper {
    static func map(status: Int, headers: HTTPHeaders, body: Data, model: String, context: WireContext) -> GenerationError {
        let message = errorMessage(body)
        let detail = context.clean(message.map { "HTTP \(status): \($0)" } ?? context.describe(status: status, body: body))
        let lower = message?.lowercased() ?? ""
        switch status {
        case 404 where lower.contains("not found"):
            return .unavailable(model: context.modelID, reason: .notInstalled(what: "the Ollama model \(model)", fix: "ollama pull \(model)"))
        case 400 where lower.contains("context") && (lower.contains("exceed") || lower.contains("too long")):
            return .contextWindowExceeded(model: context.modelID, detail: detail)
        case 503:
            return .unavailable(model: context.modelID, reason: .other("Ollama is busy or still loading (\(detail)); retry later"))
        default:
            return context.map(status: status, headers: headers, detail: detail)
        }
    }

    /// A `{"error": "…"}` line inside a 200 stream.
    static func map(streamError message: String, context: WireContext) -> GenerationError {
        .serverError(model: context.modelID, status: nil, detail: context.clean("error in stream: \(message)"))
    }

    /// The `error` string of an Ollama error body.
    static func errorMessage(_ body: Data) -> String? {
        guard let json = try? JSONValue(parsing: String(decoding: body, as: UTF8.self)) else { return nil }
        return json["error"]?.stringValue ?? json["error"]?["message"]?.stringValue
    }
}
