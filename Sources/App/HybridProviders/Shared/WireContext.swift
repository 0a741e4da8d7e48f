import Foundation
import HybridCore
import HybridTransport

/// What every provider's error mapping needs for one call: the model id, the key redactor and the clock.
///
/// Shared by all HTTP adapters so that transport failures map the same way everywhere and every detail string
/// is redacted and shortened by one function.
struct WireContext: Sendable {
    var modelID: String
    var redactor: APIKeyRedactor
    /// Where the key came from (the engine's ``HTTPModelEngine/keySource``), for an authentication failure.
    var keySource: String = ""
    var now: Date = Date()

    /// Error details are cut to this many characters; enough to act on, short enough for a log line.
    static let detailLimit = 300

    /// Redacts and shortens text for an error detail. Redaction runs on the whole text before shortening, so a
    /// key cut in half cannot slip through.
    func clean(_ text: String) -> String {
        let redacted = redactor(text)
        guard redacted.count > Self.detailLimit else { return redacted }
        return String(redacted.prefix(Self.detailLimit)) + "…"
    }

    /// The decoding failure for an answer that is not `what`: the member at fault when the reader named one (`error`,
    /// its path from `root`), then the answer's first 120 bytes, cleaned as every detail is.
    func notDecoded(_ what: String, at error: JSONMemberError? = nil, root: String = "body", data: Data) -> GenerationError {
        notDecoded(what, at: error, root: root, sample: String(decoding: data.prefix(120), as: UTF8.self))
    }

    /// The same for a text answer (a stream event's data), its first 120 characters shown.
    func notDecoded(_ what: String, at error: JSONMemberError? = nil, root: String = "body", text: String) -> GenerationError {
        notDecoded(what, at: error, root: root, sample: String(text.prefix(120)))
    }

    private func notDecoded(_ what: String, at error: JSONMemberError?, root: String, sample: String) -> GenerationError {
        let member = error.map { " (\($0.described(root: root)))" } ?? ""
        return .decodingFailure(model: modelID, detail: clean("\(what)\(member): \(sample)"))
    }

    /// A transport failure. `deadlineCapped` is true when the request's deadline, not the configured limit,
    /// set the total timeout, so a total timeout is reported as the deadline passing.
    func map(_ error: TransportError, deadlineCapped: Bool) -> GenerationError {
        switch error {
        case .invalidURL(let url):
            return .invalidRequest(model: modelID, detail: clean("invalid base URL \(url)"))
        case .connectionFailed:
            return .unavailable(model: modelID, reason: .unreachable(clean(error.description)))
        case .timedOut(_, let phase, let after):
            switch phase {
            case .connect: return .timeout(model: modelID, after: after, phase: .connect)
            case .firstByte: return .timeout(model: modelID, after: after, phase: .firstByte)
            case .total: return .timeout(model: modelID, after: after, phase: deadlineCapped ? .deadline : .total)
            }
        case .bodyTooLarge:
            return .decodingFailure(model: modelID, detail: clean(error.description))
        case .cancelled:
            return .cancelled(model: modelID)
        case .failed:
            return .serverError(model: modelID, status: nil, detail: clean(error.description))
        }
    }

    /// The mapping every provider shares once its own special cases (context overflow, quotas, overload) are
    /// handled: 401/403 authentication, 429 rate limited after `Retry-After`, other 4xx invalid request, the rest
    /// a server error. `status` is nil for an error reported inside a stream without one.
    func map(status: Int?, headers: HTTPHeaders, detail: String) -> GenerationError {
        switch status {
        case 401, 403:
            return authentication(detail: detail)
        case 429:
            return .rateLimited(model: modelID, retryAfter: RetryAfter.duration(from: headers, now: now), retryable: true, detail: detail)
        case let status? where (400..<500).contains(status):
            return .invalidRequest(model: modelID, detail: detail)
        case let status?:
            return .serverError(model: modelID, status: status, detail: detail)
        case nil:
            return .serverError(model: modelID, status: nil, detail: detail)
        }
    }

    /// A rejected key, said with where the key came from: code, an environment variable or a proxy's headers.
    func authentication(detail: String) -> GenerationError {
        .authentication(model: modelID, detail: keySource.isEmpty ? detail : "\(detail); the key came from \(keySource)")
    }

    /// The body text of an error response, or a note that it was empty, prefixed with the status.
    func describe(status: Int, body: Data) -> String {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status) with an empty body" : "HTTP \(status): \(text)"
    }
}
