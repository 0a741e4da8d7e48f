public import Foundation

/// One router event as the store keeps it in `field_events`: the figures a field report needs, flattened. Never
/// prompts, inputs or outputs (the collector drops an event's opt-in content before it gets here).
public struct FieldEventRecord: Sendable, Hashable {
    /// The event's unique id; a second event with the same id is a re-send and is ignored.
    public var eventID: String
    /// When the request happened on the device.
    public var occurredAt: Date
    /// The pseudonymous install id, the unit of randomization (the SRM check counts distinct installs).
    public var installID: String
    /// The feature.
    public var feature: String
    /// The config version the request ran under; with the feature it names the field run.
    public var configVersion: Int
    /// The config's content hash, when the app knew it.
    public var configHash: String?
    /// The rollout arm, or nil for the feature's defaults (installs outside every arm).
    public var rolloutArm: String?
    /// The install's bucket (0–9,999).
    public var bucket: Int?
    /// The prompt variant.
    public var variant: String
    /// The model that served the answer; nil when none did.
    public var servedBy: String?
    /// That model's tier.
    public var servedTier: String?
    /// served, servedFailing, failed or declined (or a newer value, kept as sent).
    public var outcome: String
    /// The final error's kind, when the request failed.
    public var errorKind: String?
    /// Models tried.
    public var attemptCount: Int
    /// True when a model after the first attempt served (or was tried): the router fell back.
    public var fellBack: Bool
    /// Time to first token, when streamed.
    public var ttftMs: Double?
    /// Total latency of the request.
    public var latencyMs: Double
    /// Input tokens.
    public var inputTokens: Int
    /// Output tokens.
    public var outputTokens: Int
    /// True when the token counts are estimates.
    public var tokensEstimated: Bool
    /// Cost from the config's prices, over the calls whose model has prices (see ``costUnknown``).
    public var costUSD: Double
    /// Output checks run.
    public var checksTotal: Int
    /// Names of the checks that failed, sorted.
    public var failedChecks: [String]
    /// Served from the router's cache.
    public var cacheHit: Bool
    /// Labels the app supplied (app version, OS, device class).
    public var labels: [String: String]
    /// The request raced a second model (a hedge): its attempts hold a `lostRace`, or two calls that overlap.
    public var hedged: Bool
    /// A call of the request went to a model without prices: ``costUSD`` is then a lower bound, not the cost.
    public var costUnknown: Bool
    /// The feature's input rule that chose the route (`inputRules` in the config); nil when its own route applied.
    public var inputRule: String?

    /// A record; see the properties.
    public init(
        eventID: String, occurredAt: Date, installID: String, feature: String, configVersion: Int,
        configHash: String? = nil, rolloutArm: String?, bucket: Int?, variant: String, servedBy: String?,
        servedTier: String?, outcome: String, errorKind: String?, attemptCount: Int, fellBack: Bool, ttftMs: Double?,
        latencyMs: Double, inputTokens: Int, outputTokens: Int, tokensEstimated: Bool, costUSD: Double,
        checksTotal: Int, failedChecks: [String], cacheHit: Bool, labels: [String: String] = [:], hedged: Bool = false,
        costUnknown: Bool = false, inputRule: String? = nil
    ) {
        self.eventID = eventID
        self.occurredAt = occurredAt
        self.installID = installID
        self.feature = feature
        self.configVersion = configVersion
        self.configHash = configHash
        self.rolloutArm = rolloutArm
        self.bucket = bucket
        self.variant = variant
        self.servedBy = servedBy
        self.servedTier = servedTier
        self.outcome = outcome
        self.errorKind = errorKind
        self.attemptCount = attemptCount
        self.fellBack = fellBack
        self.ttftMs = ttftMs
        self.latencyMs = latencyMs
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.tokensEstimated = tokensEstimated
        self.costUSD = costUSD
        self.checksTotal = checksTotal
        self.failedChecks = failedChecks
        self.cacheHit = cacheHit
        self.labels = labels
        self.hedged = hedged
        self.costUnknown = costUnknown
        self.inputRule = inputRule
    }

    /// True when every check passed (vacuously true without checks) and the request did not fail.
    public var adherent: Bool { failedChecks.isEmpty && outcome != "failed" && outcome != "declined" }

    /// The field run this event belongs to.
    public var runID: String { SQLiteFieldEventStore.runID(feature: feature, configVersion: configVersion) }
}
