import HybridConfig
public import HybridCore

/// Why a routed request produced no response.
///
/// A struct with a code rather than a public enum, so a new kind of failure does not break callers' exhaustive
/// switches (the shape of async-http-client's `HTTPClientError`): test `error.code == .deadlineExceeded` and read
/// the properties. Every kind that got as far as trying models carries the attempts, so the caller (or a log) can see
/// each model's reason. ``Code/inputTooShort`` is a graceful decline, not a fault: show the app's non-AI fallback.
public struct RouterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; compare with `==` and keep a `default` in a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Internal so the router's own switches stay exhaustive while callers cannot depend on the list.
        enum Kind: String, Sendable {
            case unknownFeature, inputTooShort, renderFailed, noEligibleModel, deadlineExceeded, stopped
            case streamInterrupted, cancelled, outputChecksFailed, outputNotDecodable, invalidOutputType
        }

        let kind: Kind

        /// The config in force has no feature by that name.
        public static let unknownFeature = Code(kind: .unknownFeature)
        /// The input is shorter than the feature's minimum; no model was called.
        public static let inputTooShort = Code(kind: .inputTooShort)
        /// The feature's prompt could not be rendered with this input (missing variable, unknown variant).
        public static let renderFailed = Code(kind: .renderFailed)
        /// Every model in the priority order was skipped or failed.
        public static let noEligibleModel = Code(kind: .noEligibleModel)
        /// The overall deadline passed before any model answered.
        public static let deadlineExceeded = Code(kind: .deadlineExceeded)
        /// A model failed with an error kind the policy does not fall back on (by default a refusal).
        public static let stopped = Code(kind: .stopped)
        /// A streamed answer failed after text was already delivered and no model recovered it (`streamRecovery`).
        public static let streamInterrupted = Code(kind: .streamInterrupted)
        /// The caller cancelled the request.
        public static let cancelled = Code(kind: .cancelled)
        /// Every model called failed an output check the policy falls back on, and `whenChecksFail` is `throw`.
        public static let outputChecksFailed = Code(kind: .outputChecksFailed)
        /// A typed call (`generating:`) got an answer that does not decode into the type from every model tried.
        public static let outputNotDecodable = Code(kind: .outputNotDecodable)
        /// A typed call's (or a typed tool's) type has no valid schema: a mistake in the app's code, found before any
        /// model was called; ``RouterError/outputTypeError`` says where.
        public static let invalidOutputType = Code(kind: .invalidOutputType)

        /// The code's name as written in Swift (`deadlineExceeded`).
        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The feature asked for; nil only for ``Code/renderFailed``, which is raised where the feature is not named.
    public let feature: String?
    /// The attempts made before the failure (empty for errors raised before routing).
    public let attempts: [RouteAttempt]
    /// For ``Code/unknownFeature``: the features the config in force does define.
    let knownFeatures: [String]
    /// For ``Code/inputTooShort``: the feature's minimum input length, in characters.
    public let minimumLength: Int?
    /// For ``Code/inputTooShort``: the input's length, in characters.
    public let inputLength: Int?
    /// For ``Code/renderFailed``: why the prompt could not be rendered.
    let renderError: PromptRenderError?
    /// For ``Code/deadlineExceeded``: the overall deadline that passed.
    let deadline: Duration?
    /// For ``Code/stopped`` and ``Code/streamInterrupted``: the model's error that ended the request.
    public let generationError: GenerationError?
    /// For ``Code/outputNotDecodable``: the type and why the best answer did not decode into it.
    let decodingProblem: String?
    /// For ``Code/invalidOutputType``: the type, the property and what is wrong with them.
    public let outputTypeError: StructuredOutputError?

    private init(
        _ code: Code, feature: String?, attempts: [RouteAttempt] = [], knownFeatures: [String] = [],
        minimumLength: Int? = nil, inputLength: Int? = nil, renderError: PromptRenderError? = nil,
        deadline: Duration? = nil, generationError: GenerationError? = nil, decodingProblem: String? = nil,
        outputTypeError: StructuredOutputError? = nil
    ) {
        self.decodingProblem = decodingProblem
        self.outputTypeError = outputTypeError
        self.code = code
        self.feature = feature
        self.attempts = attempts
        self.knownFeatures = knownFeatures
        self.minimumLength = minimumLength
        self.inputLength = inputLength
        self.renderError = renderError
        self.deadline = deadline
        self.generationError = generationError
    }

    /// The config in force has no feature by that name; `known` lists the features it has.
    static func unknownFeature(_ name: String, known: [String]) -> RouterError {
        RouterError(.unknownFeature, feature: name, knownFeatures: known)
    }

    /// The input is shorter than the feature's minimum; no model was called.
    static func inputTooShort(feature: String, minimum: Int, actual: Int) -> RouterError {
        RouterError(.inputTooShort, feature: feature, minimumLength: minimum, inputLength: actual)
    }

    /// The feature's prompt could not be rendered with this input (missing variable, unknown variant).
    static func renderFailed(_ error: PromptRenderError) -> RouterError {
        RouterError(.renderFailed, feature: nil, renderError: error)
    }

    /// Every model in the priority order was skipped or failed.
    static func noEligibleModel(feature: String, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.noEligibleModel, feature: feature, attempts: attempts)
    }

    /// The overall deadline passed before any model answered.
    static func deadlineExceeded(feature: String, deadline: Duration, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.deadlineExceeded, feature: feature, attempts: attempts, deadline: deadline)
    }

    /// A model failed with an error kind the policy does not fall back on (by default a refusal).
    static func stopped(feature: String, error: GenerationError, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.stopped, feature: feature, attempts: attempts, generationError: error)
    }

    /// A streamed answer failed after text was already delivered, so no other model could take over.
    static func streamInterrupted(feature: String, error: GenerationError, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.streamInterrupted, feature: feature, attempts: attempts, generationError: error)
    }

    /// The caller cancelled the request.
    package static func cancelled(feature: String, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.cancelled, feature: feature, attempts: attempts)
    }

    /// Every model called answered but failed an output check the policy falls back on, and the policy says
    /// `whenChecksFail: throw`. The attempts list each model's failed checks.
    static func outputChecksFailed(feature: String, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.outputChecksFailed, feature: feature, attempts: attempts)
    }

    /// A typed call's best answer did not decode into the app's type (`problem` names the type and the path).
    static func outputNotDecodable(feature: String, problem: String, attempts: [RouteAttempt]) -> RouterError {
        RouterError(.outputNotDecodable, feature: feature, attempts: attempts, decodingProblem: problem)
    }

    /// The app's type for a typed call or tool has no valid schema (`error` names the type and the property).
    static func invalidOutputType(feature: String, _ error: StructuredOutputError) -> RouterError {
        RouterError(.invalidOutputType, feature: feature, outputTypeError: error)
    }

    /// What failed and what to do about it, with every attempt's reason.
    public var description: String {
        let name = feature ?? ""
        switch code.kind {
        case .unknownFeature:
            return "no feature \"\(name)\" in the config in force (features: \(knownFeatures.sorted().joined(separator: ", "))); check the name or publish a config that defines it"
        case .inputTooShort:
            return "\(name): input has \(inputLength ?? 0) characters, fewer than the \(minimumLength ?? 0) this feature needs; no model was asked"
        case .renderFailed:
            return "could not render the prompt: " + (renderError.map { "\($0)" } ?? "")
        case .noEligibleModel:
            return "\(name): no model could serve the request. " + Self.list(attempts)
        case .deadlineExceeded:
            return "\(name): no answer within the \(RouteAttempt.ms(deadline ?? .zero)) deadline; raise deadlineMs or put a faster model first. " + Self.list(attempts)
        case .stopped:
            let error = generationError.map { "\($0)" } ?? "", kind = generationError?.kind.rawValue ?? ""
            return "\(name): stopped after \(error) (the router policy does not fall back on \(kind)). " + Self.list(attempts)
        case .streamInterrupted:
            let error = generationError.map { "\($0)" } ?? ""
            return "\(name): the stream failed after text was delivered, so no fallback was possible: \(error). " + Self.list(attempts)
        case .cancelled:
            return "\(name): cancelled by the caller. " + Self.list(attempts)
        case .outputChecksFailed:
            return "\(name): every model's answer failed its output checks (routing.whenChecksFail is throw). " + Self.list(attempts)
        case .outputNotDecodable:
            return "\(name): no model's answer decodes into the app's type: \(decodingProblem ?? ""); put a model with "
                + "structured output earlier in the order, or describe the properties better. " + Self.list(attempts)
        case .invalidOutputType:
            return "\(name): no model was asked: " + (outputTypeError.map { "\($0)" } ?? "")
                + " (StructuredOutput.validateSchema() finds this in a unit test)"
        }
    }

    private static func list(_ attempts: [RouteAttempt]) -> String {
        attempts.isEmpty ? "No model in the priority order." : "Attempts: " + attempts.map(\.description).joined(separator: "; ")
    }
}
