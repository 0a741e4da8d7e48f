public import HybridConfig
public import HybridCore

/// What the router does when a model fails, how long it rests a rate-limited model, and how it sizes inputs.
///
/// A feature's `routing` block in the config (over the document's `routing` defaults) takes precedence field by
/// field; this policy supplies what the config does not say, so an app can set its own defaults in code while a
/// published config stays in charge. Defaults: every error kind moves to the next model except `.refusal` and `.cancelled`, which stop the walk
/// (a guardrail that fired on one model should not be bypassed by asking another; set `onRefusal = .tryNext` to
/// allow it). `.contextWindowExceeded` moves only to models with a larger window; `.rateLimited` also puts the
/// model in cooldown; `.authentication` also raises a `RouterIncident`.
public struct RouterDefaults: Sendable {
    /// What to do after a model failed with some error kind.
    public enum FallbackAction: Sendable, Hashable {
        /// Try the next eligible model in the priority order.
        case tryNext
        /// Stop and throw `RouterError.stopped` with the error.
        case stop
    }

    /// How inputs that do not fit are handled.
    public enum Truncation: Sendable, Hashable {
        /// Never cut inputs; models whose window cannot hold the prompt are skipped.
        case none
        /// Cut the longest input variable (keeping its start, adding "…") until the rendered prompt fits the
        /// largest context window among the models the privacy class allows. The names of cut inputs are reported
        /// in `RoutedResponse.truncatedInputs`.
        case trimLongestInputToFit
    }

    /// Action per error kind; kinds not listed use `.tryNext`.
    public var fallback: [GenerationError.Kind: FallbackAction]
    /// Cooldown after `.rateLimited` without a `Retry-After`.
    public var rateLimitCooldown: Duration
    /// Cooldown after a non-retryable quota error (spend limit, daily quota), which a short wait will not fix.
    public var quotaCooldown: Duration
    /// Safety margin on estimated prompt tokens (0.15 = 15 % more), because `TokenEstimator` is a rough estimate.
    public var promptTokenMargin: Double
    /// Output tokens reserved in the context window when the feature sets no `maxOutputTokens`.
    public var defaultOutputTokenReserve: Int
    /// Per feature: fewer input characters than this (whitespace trimmed, summed over the inputs) makes
    /// `generate` decline with `.inputTooShort` before any model is called.
    public var minimumInputCharacters: [String: Int]
    /// The minimum for features not listed in `minimumInputCharacters`.
    public var defaultMinimumInputCharacters: Int
    /// What to do with inputs that do not fit.
    public var truncation: Truncation
    /// Ask each model's `availability()` before calling it; false saves a probe per call for models whose check
    /// is slow, leaving unavailability to surface as a `.unavailable` error.
    public var checkAvailability: Bool
    /// Longest time one model may take before it is cancelled and the next one tried; nil: only the overall
    /// deadline applies.
    public var attemptTimeout: Duration?
    /// Failed output checks (schema, constraints) that make the router try the next model; none by default.
    public var fallbackOnOutput: OutputCheckSelection
    /// What to return when every model called failed a check in `fallbackOnOutput`.
    public var whenChecksFail: RoutingConfig.WhenChecksFail
    /// How `stream` delivers text: progressive (as it arrives) or buffered (after the checks passed).
    public var streaming: RoutingConfig.StreamingMode

    /// The error kinds that stop the walk unless a config or the app says otherwise: the one place this default
    /// lives, read by the router, the simulator (`ReplayPolicy`) and `hybrid simulate --stop-on`.
    public static let stoppingKinds: [GenerationError.Kind] = [.cancelled, .refusal]

    /// The defaults an app gets without saying anything; the walk's own `Rules()` take their cooldowns from here.
    package static let standard = RouterDefaults()

    /// Creates a policy; by default refusals and cancellations stop the walk, rate limits cool a model down for 30 s and quota errors for 15 min.
    public init(
        fallback: [GenerationError.Kind: FallbackAction] = Dictionary(
            uniqueKeysWithValues: RouterDefaults.stoppingKinds.map { ($0, .stop) }),
        rateLimitCooldown: Duration = .seconds(30),
        quotaCooldown: Duration = .seconds(15 * 60),
        promptTokenMargin: Double = 0.15,
        defaultOutputTokenReserve: Int = 256,
        minimumInputCharacters: [String: Int] = [:],
        defaultMinimumInputCharacters: Int = 0,
        truncation: Truncation = .none,
        checkAvailability: Bool = true,
        attemptTimeout: Duration? = nil,
        fallbackOnOutput: OutputCheckSelection = .none,
        whenChecksFail: RoutingConfig.WhenChecksFail = .returnBest,
        streaming: RoutingConfig.StreamingMode = .progressive
    ) {
        self.fallback = fallback
        self.rateLimitCooldown = rateLimitCooldown
        self.quotaCooldown = quotaCooldown
        self.promptTokenMargin = promptTokenMargin
        self.defaultOutputTokenReserve = defaultOutputTokenReserve
        self.minimumInputCharacters = minimumInputCharacters
        self.defaultMinimumInputCharacters = defaultMinimumInputCharacters
        self.truncation = truncation
        self.checkAvailability = checkAvailability
        self.attemptTimeout = attemptTimeout
        self.fallbackOnOutput = fallbackOnOutput
        self.whenChecksFail = whenChecksFail
        self.streaming = streaming
    }

    /// What happens after a refusal or guardrail stop: `.stop` (default) or `.tryNext`.
    public var onRefusal: FallbackAction {
        get { action(for: .refusal) }
        set { fallback[.refusal] = newValue }
    }

    /// The action for an error kind.
    package func action(for kind: GenerationError.Kind) -> FallbackAction {
        fallback[kind] ?? .tryNext
    }

    /// The minimum input length for `feature`.
    package func minimumInput(for feature: String) -> Int {
        minimumInputCharacters[feature] ?? defaultMinimumInputCharacters
    }

    /// Tokens a prompt of `promptTokens` estimated tokens needs with the margin, plus `outputTokens`.
    func requiredWindow(promptTokens: Int, outputTokens: Int) -> Int {
        Int((Double(promptTokens) * (1 + max(0, promptTokenMargin))).rounded(.up)) + outputTokens
    }
}

