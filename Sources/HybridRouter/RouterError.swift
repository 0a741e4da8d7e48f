public import HybridConfig
public import HybridCore

/// Why a routed request produced no response.
///
/// Every case that got as far as trying models carries the attempts, so the caller (or a log) can see each model's
/// reason. `.inputTooShort` is a graceful decline, not a fault: show the app's non-AI fallback.
public enum RouterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The config in force has no feature by that name.
    case unknownFeature(String, known: [String])
    /// The input is shorter than the feature's minimum; no model was called.
    case inputTooShort(feature: String, minimum: Int, actual: Int)
    /// The feature's prompt could not be rendered with this input (missing variable, unknown variant).
    case renderFailed(PromptRenderError)
    /// Every model in the priority order was skipped or failed.
    case noEligibleModel(feature: String, attempts: [RouteAttempt])
    /// The overall deadline passed before any model answered.
    case deadlineExceeded(feature: String, deadline: Duration, attempts: [RouteAttempt])
    /// A model failed with an error kind the policy does not fall back on (by default a refusal).
    case stopped(feature: String, error: GenerationError, attempts: [RouteAttempt])
    /// A streamed answer failed after text was already delivered, so no other model could take over.
    case streamInterrupted(feature: String, error: GenerationError, attempts: [RouteAttempt])
    /// The caller cancelled the request.
    case cancelled(feature: String, attempts: [RouteAttempt])
    /// Every model called answered but failed an output check the policy falls back on, and the policy says
    /// `whenChecksFail: throw`. The attempts list each model's failed checks.
    case outputChecksFailed(feature: String, attempts: [RouteAttempt])

    /// The attempts made before the failure (empty for errors raised before routing).
    public var attempts: [RouteAttempt] {
        switch self {
        case .unknownFeature, .inputTooShort, .renderFailed: []
        case .noEligibleModel(_, let attempts), .deadlineExceeded(_, _, let attempts), .stopped(_, _, let attempts),
            .streamInterrupted(_, _, let attempts), .cancelled(_, let attempts), .outputChecksFailed(_, let attempts):
            attempts
        }
    }

    public var description: String {
        switch self {
        case .unknownFeature(let name, let known):
            return "no feature \"\(name)\" in the config in force (features: \(known.sorted().joined(separator: ", "))); check the name or publish a config that defines it"
        case .inputTooShort(let feature, let minimum, let actual):
            return "\(feature): input has \(actual) characters, fewer than the \(minimum) this feature needs; no model was asked"
        case .renderFailed(let error):
            return "could not render the prompt: \(error)"
        case .noEligibleModel(let feature, let attempts):
            return "\(feature): no model could serve the request. " + Self.list(attempts)
        case .deadlineExceeded(let feature, let deadline, let attempts):
            return "\(feature): no answer within the \(RouteAttempt.ms(deadline)) deadline; raise deadlineMs or put a faster model first. " + Self.list(attempts)
        case .stopped(let feature, let error, let attempts):
            return "\(feature): stopped after \(error) (the router policy does not fall back on \(error.kind.rawValue)). " + Self.list(attempts)
        case .streamInterrupted(let feature, let error, let attempts):
            return "\(feature): the stream failed after text was delivered, so no fallback was possible: \(error). " + Self.list(attempts)
        case .cancelled(let feature, let attempts):
            return "\(feature): cancelled by the caller. " + Self.list(attempts)
        case .outputChecksFailed(let feature, let attempts):
            return "\(feature): every model's answer failed its output checks (routing.whenChecksFail is throw). " + Self.list(attempts)
        }
    }

    private static func list(_ attempts: [RouteAttempt]) -> String {
        attempts.isEmpty ? "No model in the priority order." : "Attempts: " + attempts.map(\.description).joined(separator: "; ")
    }
}
