public import HybridCore

/// What aggregates read of one result: its key, arm, counters, timings, usage, cost, constraint verdicts and score
/// values; none of the texts (prompt, output, parsed JSON, constraint messages, score details).
///
/// Reports, `compare`, `recommend` and the viewer's run page aggregate millions of results; decoding whole
/// ``ResultRecord``s (texts and JSON columns) was most of their time. Stores hand these out through
/// ``ResultStore/forEachMeasures(run:batchSize:_:)``, the SQLite store from typed columns and side tables only.
public struct ResultMeasures: Sendable, Hashable {
    /// A constraint's verdict without what was observed.
    public struct Check: Sendable, Hashable {
        /// The constraint's name, e.g. `max_chars`.
        public var name: String
        /// True when the output met it.
        public var passed: Bool

        /// A verdict.
        public init(name: String, passed: Bool) {
            self.name = name
            self.passed = passed
        }
    }

    /// A scorer's value without its detail.
    public struct Score: Sendable, Hashable {
        /// The scorer's name, e.g. `rouge_l`.
        public var scorer: String
        /// The value (finite).
        public var value: Double

        /// A score.
        public init(scorer: String, value: Double) {
            self.scorer = scorer
            self.value = value
        }
    }

    /// Which run, case, arm and repeat.
    public var key: ResultKey
    /// The feature.
    public var feature: String
    /// The arm's prompt variant.
    public var promptVariant: String
    /// The arm's model id.
    public var modelID: String
    /// The model's tier.
    public var tier: ModelTier
    /// Token usage of the final attempt, as in ``ResultRecord/usage``.
    public var usage: TokenUsage?
    /// The timings, as in ``ResultRecord/timings``.
    public var timings: ResultTimings
    /// Estimated cost in US dollars; nil when unpriced.
    public var costUSD: Double?
    /// The constraint verdicts, in the record's order.
    public var constraints: [Check]
    /// The scores, in the record's order.
    public var scores: [Score]
    /// The error; nil on success. The message is kept: `unavailable` results carry the reason an arm was not sent.
    public var error: ResultError?
    /// Attempts after the first one.
    public var retries: Int
    /// True when served from the response cache.
    public var cacheHit: Bool
    /// True when the model's text was stored (``ResultRecord/rawOutput`` is not nil), without reading it.
    public var hasOutput: Bool

    /// Measures with every field given.
    public init(
        key: ResultKey, feature: String, promptVariant: String, modelID: String, tier: ModelTier, usage: TokenUsage?,
        timings: ResultTimings, costUSD: Double?, constraints: [Check], scores: [Score], error: ResultError?,
        retries: Int, cacheHit: Bool, hasOutput: Bool
    ) {
        self.key = key
        self.feature = feature
        self.promptVariant = promptVariant
        self.modelID = modelID
        self.tier = tier
        self.usage = usage
        self.timings = timings
        self.costUSD = costUSD
        self.constraints = constraints
        self.scores = scores
        self.error = error
        self.retries = retries
        self.cacheHit = cacheHit
        self.hasOutput = hasOutput
    }

    /// The measures of a whole record (what the default store path hands out).
    public init(_ record: ResultRecord) {
        self.init(
            key: record.key, feature: record.feature, promptVariant: record.promptVariant, modelID: record.modelID,
            tier: record.tier, usage: record.usage, timings: record.timings, costUSD: record.costUSD,
            constraints: record.constraints.map { Check(name: $0.name, passed: $0.passed) },
            scores: record.scores.map { Score(scorer: $0.scorer, value: $0.value) },
            error: record.error, retries: record.retries, cacheHit: record.cacheHit, hasOutput: record.rawOutput != nil)
    }

    /// True when every constraint passed; nil when the result was checked against none.
    public var allConstraintsPassed: Bool? {
        constraints.isEmpty ? nil : constraints.allSatisfy(\.passed)
    }
}
