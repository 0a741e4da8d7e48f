// Apple platforms only; not compiled on the Linux CI. The 27 SDK types (LanguageModelError,
// SystemLanguageModel.Error, PrivateCloudComputeLanguageModel.Error, LanguageModelSession.Error) are behind
// `compiler(>=6.4)`: that toolchain ships with the 27 SDK, and the 26 SDK does not declare them.
#if canImport(FoundationModels)
import FoundationModels
import HybridCore

/// Maps what a Foundation Models session throws onto `GenerationError` kinds, so the router falls back on the
/// kind: context exceeded → a larger window; rate limited and concurrent requests → another model, and this one
/// cools down; guardrail violations and refusals → refusal; an unsupported language → unavailable (another model
/// may speak it); missing assets → not ready.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
enum FoundationModelsErrors {
    static func map(_ error: any Error, model id: String) -> GenerationError {
        if let error = error as? GenerationError { return error }
        if error is CancellationError { return .cancelled(model: id) }
        if let error = error as? LanguageModelSession.GenerationError { return map(error, model: id) }
        #if compiler(>=6.4)
        if #available(macOS 27.0, iOS 27.0, visionOS 27.0, *), let mapped = mapSDK27(error, model: id) { return mapped }
        #endif
        return .serverError(model: id, status: nil, detail: "Foundation Models failed: \(error.localizedDescription)")
    }

    /// The 26 SDK's session errors (deprecated in 27 in favour of `LanguageModelError`, still thrown by 26.x).
    static func map(_ error: LanguageModelSession.GenerationError, model id: String) -> GenerationError {
        switch error {
        case .exceededContextWindowSize(let context):
            .contextWindowExceeded(model: id, detail: context.debugDescription)
        case .assetsUnavailable:
            .unavailable(model: id, reason: .modelNotReady)
        case .guardrailViolation(let context):
            .refusal(model: id, detail: "guardrail violation: \(context.debugDescription)")
        case .refusal:
            .refusal(model: id, detail: "the model declined to answer")
        case .unsupportedLanguageOrLocale(let context):
            .unavailable(model: id, reason: .other("the model does not support this language or locale: \(context.debugDescription)"))
        case .unsupportedGuide(let context):
            .invalidRequest(model: id, detail: context.debugDescription)
        case .decodingFailure(let context):
            .decodingFailure(model: id, detail: context.debugDescription)
        case .rateLimited(let context):
            .rateLimited(model: id, retryAfter: nil, retryable: true, detail: context.debugDescription)
        case .concurrentRequests(let context):
            .rateLimited(model: id, retryAfter: nil, retryable: true, detail: "a session is already responding: \(context.debugDescription)")
        @unknown default:
            .serverError(model: id, status: nil, detail: String(describing: error))
        }
    }

    #if compiler(>=6.4)
    /// The 27 SDK's error types; nil for anything else.
    @available(macOS 27.0, iOS 27.0, visionOS 27.0, *)
    static func mapSDK27(_ error: any Error, model id: String) -> GenerationError? {
        if let error = error as? LanguageModelError {
            switch error {
            case .contextSizeExceeded(let info):
                return .contextWindowExceeded(model: id, detail: "the transcript exceeded the model's \(info.contextSize) tokens")
            case .rateLimited:
                return .rateLimited(model: id, retryAfter: nil, retryable: true, detail: "rate limited by the system")
            case .refusal:
                return .refusal(model: id, detail: "the model declined to answer")
            case .unsupportedLanguageOrLocale(let info):
                return .unavailable(model: id, reason: .other("the model does not support language \(info.languageCode.identifier)"))
            default:
                return .serverError(model: id, status: nil, detail: String(describing: error))
            }
        }
        if let error = error as? SystemLanguageModel.Error, case .assetsUnavailable = error {
            return .unavailable(model: id, reason: .modelNotReady)
        }
        if let error = error as? PrivateCloudComputeLanguageModel.Error {
            switch error {
            case .quotaLimitReached:
                // The quota resets later, not in seconds: not worth an immediate retry; the router cools it down.
                return .rateLimited(model: id, retryAfter: nil, retryable: false, detail: "Private Cloud Compute usage quota reached")
            case .networkFailure:
                return .unavailable(model: id, reason: .unreachable("Private Cloud Compute is not reachable"))
            case .serviceUnavailable:
                return .serverError(model: id, status: nil, detail: "Private Cloud Compute is unavailable")
            default:
                return .serverError(model: id, status: nil, detail: String(describing: error))
            }
        }
        if let error = error as? LanguageModelSession.Error, case .concurrentRequests = error {
            return .rateLimited(model: id, retryAfter: nil, retryable: true, detail: "a session is already responding")
        }
        return nil
    }
    #endif
}
#endif
