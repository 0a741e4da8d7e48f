public import HybridConfig
package import HybridCore

/// The app's own defaults: a routing block in the config's vocabulary, under the config's, and the sizing rules
/// only code can set.
///
/// `routing` is the same `RoutingConfig` a published config carries, one layer further down: a feature's `routing`
/// block wins over the document's, the document's over this one, field by field (`onError` key by key), and what no
/// layer says comes from the built-in defaults. Those are: `refusal` and `cancelled` stop the walk (a guardrail
/// that fired on one model should not be bypassed by asking another; set `"refusal": .fallback` to allow it),
/// every other error kind falls back, a rate limit rests a model 30 s and a quota error 15 min, no output check
/// falls back, a request whose every answer failed its checks gets the best of them, and streams deliver text as
/// it arrives. `.contextWindowExceeded` moves only to models with a larger window; `.authentication` also raises a
/// `RouterIncident`.
public struct RouterDefaults: Sendable {
    /// How inputs that do not fit are handled.
    public enum Truncation: Sendable, Hashable {
        /// Never cut inputs; models whose window cannot hold the prompt are skipped.
        case none
        /// Cut the longest input variable (keeping its start, adding "…") until the rendered prompt fits the
        /// largest context window among the models the privacy class allows. The names of cut inputs are reported
        /// in `RoutedResponse.truncatedInputs`.
        case trimLongestInputToFit
    }

    /// The app's routing block, under every block of the config; checked by `Router`'s initialisers as a config's
    /// is (unknown error kinds or checks, negative durations throw `ConfigError`). `hedge` is refused here: racing a
    /// second model costs money, so only a config (which `hybrid recommend` writes from eval evidence) turns it on.
    public var routing: RoutingConfig {
        didSet { baseRouting = routing.merged(over: Self.builtInRouting) }
    }
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
    /// Record each request's prompt and answer on its span (`gen_ai.system_instructions`, `gen_ai.input.messages`,
    /// `gen_ai.output.messages`, as the OpenTelemetry GenAI conventions' opt-in content capture says); false by
    /// default, because prompts carry what users typed. Spans and metrics exist only when the app bootstraps a
    /// swift-distributed-tracing tracer or a swift-metrics backend; API keys and headers are never recorded.
    public var captureMessageContent: Bool
    /// `routing` over the built-in block: what a request's config blocks are merged over, merged when the defaults
    /// change rather than on every request.
    private(set) var baseRouting: RoutingConfig

    /// Creates the defaults; with no arguments, the built-in routing and sizing rules.
    public init(
        routing: RoutingConfig = RoutingConfig(),
        promptTokenMargin: Double = 0.15,
        defaultOutputTokenReserve: Int = 256,
        minimumInputCharacters: [String: Int] = [:],
        defaultMinimumInputCharacters: Int = 0,
        truncation: Truncation = .none,
        checkAvailability: Bool = true,
        captureMessageContent: Bool = false
    ) {
        self.routing = routing
        self.promptTokenMargin = promptTokenMargin
        self.defaultOutputTokenReserve = defaultOutputTokenReserve
        self.minimumInputCharacters = minimumInputCharacters
        self.defaultMinimumInputCharacters = defaultMinimumInputCharacters
        self.truncation = truncation
        self.checkAvailability = checkAvailability
        self.captureMessageContent = captureMessageContent
        baseRouting = routing.merged(over: Self.builtInRouting)
    }

    /// The minimum input length for `feature`.
    func minimumInput(for feature: String) -> Int {
        minimumInputCharacters[feature] ?? defaultMinimumInputCharacters
    }

    /// Tokens a prompt of `promptTokens` estimated tokens needs with the margin, plus `outputTokens`.
    func requiredWindow(promptTokens: Int, outputTokens: Int) -> Int {
        Int((Double(promptTokens) * (1 + max(0, promptTokenMargin))).rounded(.up)) + outputTokens
    }
}

// MARK: - Built-in routing: the one place each default lives

extension RouterDefaults {
    /// The error kinds that stop the walk unless a config or the app says otherwise; read by the router, the
    /// simulator (`ReplayPolicy`) and `hybrid simulate --stop-on`.
    package static let stoppingKinds: [GenerationError.Kind] = [.cancelled, .refusal]
    /// Rest after a rate limit without `Retry-After`.
    static let rateLimitCooldown: Duration = .seconds(30)
    /// Rest after a quota error a short wait will not fix.
    static let quotaCooldown: Duration = .seconds(15 * 60)
    /// What a request gets when every answer failed a check it falls back on.
    static let whenChecksFail: RoutingConfig.WhenChecksFail = .returnBest
    /// How streams deliver text.
    static let streaming: RoutingConfig.StreamingMode = .progressive
    /// What a progressive stream does when its model fails after text was shown: the next model goes on from it.
    static let streamRecovery: RoutingConfig.StreamRecovery = .continueAnswer

    /// The bottom layer under the app's `routing`: the stopping kinds. The other constants above are the walk's
    /// own field defaults (`RoutingWalk.Rules`), so they need no block to say them again.
    static let builtInRouting = RoutingConfig(
        onError: Dictionary(uniqueKeysWithValues: stoppingKinds.map { ($0.rawValue, .stop) }))
}
