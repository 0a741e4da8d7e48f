public import Foundation

/// What happened to one routed request, as an app reports it from the field: which arm and variant it used, which
/// model served it, every attempt, timings, tokens, cost and output checks.
///
/// The wire form is JSON with camelCase keys and ISO 8601 timestamps with milliseconds (the upload body of
/// `RouteEventBatch`). It never holds API keys, and holds prompts, inputs or outputs (`content`) only when the
/// feature opts in with `events.includeContent` in the config. `id` is unique per event, so a collector that sees
/// a batch twice keeps one copy.
public struct RouteEvent: Sendable, Codable, Hashable {
    /// A unique id (a UUID string); re-uploads of the same event are recognised by it.
    public var id: String
    /// When the request started.
    @ISO8601Milliseconds public var timestamp: Date
    /// The router's pseudonymous install id: the unit of randomization for rollout arms.
    public var installId: String
    /// The feature requested.
    public var feature: String
    /// The `version` of the config in force.
    public var configVersion: Int
    /// A hash of the config in force, when the app knows one (tells two documents of the same version apart).
    public var configHash: String?
    /// The prompt variant rendered (the feature's default variant when the request failed before rendering).
    public var variant: String
    /// The rollout arm; nil for the feature's defaults (installs outside every arm).
    public var rolloutArm: String?
    /// The install's rollout bucket for this feature (0–9,999); nil when the feature has no rollout.
    public var bucket: Int?
    /// The config condition whose override served this request (`conditions` in the config); nil when none
    /// matched the install's labels.
    public var condition: String?
    /// The feature's input rule that chose the route (`inputRules` in the config); nil when the feature's own route
    /// applied.
    public var inputRule: String?
    /// The model id that served; nil when none did.
    public var servedBy: String?
    /// Where the serving model runs.
    public var servedTier: ModelTier?
    /// Served, served failing its checks, failed or declined.
    public var outcome: Outcome
    /// The final error's kind (a `GenerationError.Kind` name such as `rate_limited`, or the router's reason such as
    /// `deadline_exceeded`)
    /// when the request failed or was declined.
    public var errorKind: String?
    /// Every model considered, in order.
    public var attempts: [Attempt]
    /// Time to the first streamed text, for streamed requests that produced some.
    public var ttftMs: Double?
    /// Time from the request to its end (answer, failure or decline).
    public var latencyMs: Double
    /// Prompt tokens of the serving model's answer.
    public var inputTokens: Int
    /// Generated tokens of the serving model's answer.
    public var outputTokens: Int
    /// True when the token counts are estimates (the model reported none).
    public var tokensEstimated: Bool
    /// Cost in US dollars from the config's prices, over every model call that answered and whose model has prices;
    /// a call of unknown price adds nothing here and its attempt carries no `costUSD` (the app's
    /// `RoutedResponse.totalCostUSD` is then nil).
    public var costUSD: Double
    /// Each output check of the served answer and whether it passed.
    public var checks: [Check]
    /// True when the answer came from the router's cache and no model was called.
    public var cacheHit: Bool
    /// What the app says about where it runs (app version, OS, device class).
    public var labels: [String: String]
    /// Input variables and output text; present only when the feature opts in (`events.includeContent`).
    public var content: Content?
    /// True when the router raced a second model (a hedged request); absent otherwise. The winner is `servedBy`;
    /// the loser is the attempt whose outcome is `lostRace`, with its own tokens and cost.
    public var hedged: Bool?

    /// Creates an event; the router builds these, tests and collectors may too.
    package init(
        id: String = UUID().uuidString, timestamp: Date, installId: String, feature: String, configVersion: Int,
        configHash: String? = nil, variant: String, rolloutArm: String? = nil, bucket: Int? = nil,
        servedBy: String? = nil, servedTier: ModelTier? = nil, outcome: Outcome, errorKind: String? = nil,
        attempts: [Attempt] = [], ttftMs: Double? = nil, latencyMs: Double, inputTokens: Int = 0,
        outputTokens: Int = 0, tokensEstimated: Bool = false, costUSD: Double = 0, checks: [Check] = [],
        cacheHit: Bool = false, labels: [String: String] = [:], content: Content? = nil, condition: String? = nil,
        inputRule: String? = nil
    ) {
        self.id = id
        self.timestamp = timestamp
        self.installId = installId
        self.feature = feature
        self.configVersion = configVersion
        self.configHash = configHash
        self.variant = variant
        self.rolloutArm = rolloutArm
        self.bucket = bucket
        self.servedBy = servedBy
        self.servedTier = servedTier
        self.outcome = outcome
        self.errorKind = errorKind
        self.attempts = attempts
        self.ttftMs = ttftMs
        self.latencyMs = latencyMs
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.tokensEstimated = tokensEstimated
        self.costUSD = costUSD
        self.checks = checks
        self.cacheHit = cacheHit
        self.labels = labels
        self.content = content
        self.condition = condition
        self.inputRule = inputRule
    }
}

extension RouteEvent {
    /// How a request ended. String-backed so a value added later decodes as itself instead of failing old decoders
    /// (coded as the bare string by the standard library's `RawRepresentable` conformance).
    public struct Outcome: RawRepresentable, Sendable, Codable, Hashable, CustomStringConvertible {
        /// A model answered and its answer passed the checks the policy falls back on.
        public static let served = Outcome(rawValue: "served")
        /// Every model called failed a check the policy falls back on; the best of those answers was returned.
        public static let servedFailing = Outcome(rawValue: "servedFailing")
        /// No answer: every model was skipped or failed, the deadline passed, or the request was cancelled.
        public static let failed = Outcome(rawValue: "failed")
        /// The router declined before calling any model (input too short): the app shows its non-AI fallback.
        public static let declined = Outcome(rawValue: "declined")

        /// The wire name.
        public var rawValue: String

        /// An outcome by wire name; unknown names are kept as they are.
        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }
    }

    /// One model the router considered for the request.
    public struct Attempt: Sendable, Codable, Hashable {
        /// The configured model id.
        public var model: String
        /// Where the model runs (nil when the model is unknown).
        public var tier: ModelTier?
        /// What happened with the model.
        public var outcome: AttemptOutcome
        /// The error kind, for a failed attempt.
        public var errorKind: String?
        /// Why the model was skipped (a machine name such as `privacy` or `overBudget`), for a skipped attempt.
        public var skipReason: String?
        /// When the attempt started, in milliseconds from the start of the request.
        public var startMs: Double
        /// How long the attempt took, in milliseconds.
        public var durationMs: Double
        /// Prompt tokens of this call, when it called the model and its usage is known (reported or estimated).
        public var inputTokens: Int?
        /// Generated tokens of this call (for a cancelled hedge loser: what it produced before the cancel, when known).
        public var outputTokens: Int?
        /// What this call cost in US dollars from the config's prices; the event's `costUSD` sums them.
        public var costUSD: Double?

        /// Creates an attempt record.
        package init(
            model: String, tier: ModelTier?, outcome: AttemptOutcome, errorKind: String? = nil,
            skipReason: String? = nil, startMs: Double, durationMs: Double
        ) {
            self.model = model
            self.tier = tier
            self.outcome = outcome
            self.errorKind = errorKind
            self.skipReason = skipReason
            self.startMs = startMs
            self.durationMs = durationMs
        }
    }

    /// What happened with one model. String-backed so later values never break old decoders.
    public struct AttemptOutcome: RawRepresentable, Sendable, Codable, Hashable, CustomStringConvertible {
        /// The model answered and its answer was returned.
        public static let served = AttemptOutcome(rawValue: "served")
        /// A cached answer of this model was returned without calling it.
        public static let servedFromCache = AttemptOutcome(rawValue: "servedFromCache")
        /// The model was not called (see `skipReason`).
        public static let skipped = AttemptOutcome(rawValue: "skipped")
        /// The model was called and failed (see `errorKind`).
        public static let failed = AttemptOutcome(rawValue: "failed")
        /// The model answered but failed output checks the policy falls back on.
        public static let failedChecks = AttemptOutcome(rawValue: "failedChecks")
        /// The model ran past its per-attempt timeout and the next one was tried.
        public static let timedOut = AttemptOutcome(rawValue: "timedOut")
        /// The model was still working when the overall deadline passed.
        public static let cancelledAtDeadline = AttemptOutcome(rawValue: "cancelledAtDeadline")
        /// A hedged request: another model's answer won the race and this call was cancelled.
        public static let lostRace = AttemptOutcome(rawValue: "lostRace")
        /// A stream: the model's text reached the app, then the model failed or ran past its attempt timeout (see
        /// `errorKind`); the next model recovered the answer as `routing.streamRecovery` says, or the request failed.
        public static let interrupted = AttemptOutcome(rawValue: "interrupted")

        /// The wire name.
        public var rawValue: String

        /// An attempt outcome by wire name; unknown names are kept as they are.
        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }
    }

    /// One output check of the served answer.
    public struct Check: Sendable, Codable, Hashable {
        /// The check's name (`schema`, or a constraint such as `maxWords`).
        public var name: String
        /// Whether the answer passed it.
        public var passed: Bool

        /// Creates a check result.
        package init(name: String, passed: Bool) {
            self.name = name
            self.passed = passed
        }
    }

    /// The request's inputs and the answer, reported only for features that opt in.
    public struct Content: Sendable, Codable, Hashable {
        /// The input variables the app passed.
        public var inputs: [String: String]
        /// The answer's text; nil when none was returned.
        public var output: String?

        /// Creates a content record.
        package init(inputs: [String: String], output: String?) {
            self.inputs = inputs
            self.output = output
        }
    }
}

extension [RouteEvent.Attempt] {
    /// Whether the attempts show a hedged race: one lost it, or two calls overlapped in time (a race both sides
    /// lost). The router sets `RouteEvent.hedged` from it; collectors fall back on it for events without that field.
    /// Read per stored event by collectors, so it allocates nothing (no filtered copy of the attempts).
    package var showRace: Bool {
        if contains(where: { $0.outcome == .lostRace }) { return true }
        var previousEnd: Double?
        for call in self where call.outcome != .skipped && call.outcome != .servedFromCache {
            if let previousEnd, call.startMs < previousEnd { return true }
            previousEnd = call.startMs + call.durationMs
        }
        return false
    }
}
