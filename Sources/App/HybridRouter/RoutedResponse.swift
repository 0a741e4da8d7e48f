public import HybridCore

/// A routed generation: the response, every attempt that led to it, and which prompt variant and arm were used.
public struct RoutedResponse: Sendable, Equatable {
    /// The model's response; `response.servedBy` names the model that answered.
    public var response: GenerationResponse
    /// Every model considered, in order, ending with the one that served.
    public var attempts: [RouteAttempt]
    /// The prompt variant rendered.
    public var variant: String
    /// The rollout arm this install fell in, or nil for the feature's defaults.
    public var rolloutArm: String?
    /// True when the response came from the router's cache and no model was called.
    public var fromCache: Bool
    /// Input variables cut to make the prompt fit (see `RouterDefaults.Truncation` and `truncateInputTo`).
    public var truncatedInputs: [String]
    /// Every output check (schema, constraints) the response failed; empty when it passed them all or the
    /// feature has none. A served response may fail checks the routing policy does not fall back on.
    public var failedChecks: [FailedOutputCheck]
    /// True when every model called failed a check the policy falls back on and this is the best of those
    /// answers (fewest failed checks), returned because the policy says `whenChecksFail: return-best`.
    public var isFailing: Bool
    /// The config condition whose override applied (see `ConfigCondition`); nil when none matched the labels the
    /// router was given.
    public var condition: String?
    /// The feature's input rule that chose this request's route (`inputRules` in the config: what the request
    /// holds, or a label passed with the call); nil when the feature's own route applied.
    public var inputRule: String?
    /// Tokens of every model call the request made, summed: fallbacks, a hedge's loser, an interrupted stream and
    /// the answer (none for a cached answer). `response.usage` is the answer's alone.
    public var totalUsage: TokenUsage
    /// What the request cost at the config's prices: every call in ``totalUsage``, each at its own model's prices
    /// (zero for free and cached answers); nil when a model called has no prices (``ModelConfig/pricing``), so an
    /// unknown cost never reads as $0. The field event's `costUSD` sums the calls whose cost is known.
    public var totalCostUSD: Double?

    /// Creates a routed response; `Router` builds these.
    init(
        response: GenerationResponse, attempts: [RouteAttempt], variant: String, rolloutArm: String?,
        fromCache: Bool, truncatedInputs: [String] = [], failedChecks: [FailedOutputCheck] = [], isFailing: Bool = false,
        condition: String? = nil, inputRule: String? = nil, totalUsage: TokenUsage = TokenUsage(promptTokens: 0, completionTokens: 0),
        totalCostUSD: Double? = 0
    ) {
        self.response = response
        self.attempts = attempts
        self.variant = variant
        self.rolloutArm = rolloutArm
        self.fromCache = fromCache
        self.truncatedInputs = truncatedInputs
        self.failedChecks = failedChecks
        self.isFailing = isFailing
        self.condition = condition
        self.inputRule = inputRule
        self.totalUsage = totalUsage
        self.totalCostUSD = totalCostUSD
    }

    /// The model that answered.
    public var servedBy: ModelIdentity { response.servedBy }
}
