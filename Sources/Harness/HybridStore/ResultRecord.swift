public import Foundation
public import HybridCore
import GRDB

/// One eval result: a (run, case, arm, repeat) key with everything measured about it. A row of `results`.
///
/// Stored the moment it completes, so a crash loses at most the results still in flight. Constraint outcomes and
/// quality scores are JSON columns; `constraints_passed` repeats "all constraints passed" as an integer so reports
/// can aggregate in SQL. There is no column for API keys or request headers, and none may be added.
public struct ResultRecord: Sendable, Hashable {
    /// Which run, case, arm and repeat this is; unique in the table.
    public var key: ResultKey
    /// Feature name from the config, e.g. `summarize`.
    public var feature: String
    /// Name of the prompt variant the arm used.
    public var promptVariant: String
    /// The configured model id that served (or failed) the request.
    public var modelID: String
    /// Tier of the model in `modelID`.
    public var tier: ModelTier
    /// Hash of the rendered prompt, to tell which prompt text produced the output without storing it twice.
    public var renderedPromptHash: String
    /// The rendered user message that was sent, so reports can show the input beside a failing output.
    public var renderedPrompt: String?
    /// Version of the config the run used; nil when it ran from a file without one.
    public var configVersion: Int?
    /// Content hash of the config the run used; nil when unknown.
    public var configHash: String?
    /// The model's text as received; nil when the request failed before any output.
    public var rawOutput: String?
    /// The output parsed as JSON when the feature expects JSON and it parsed.
    public var parsedOutput: JSONValue?
    /// Token usage of the final attempt; nil when the request failed without a usage report.
    public var usage: TokenUsage?
    /// Latency of the result, in milliseconds, with retry backoff kept apart.
    public var timings: ResultTimings
    /// Estimated cost in US dollars; nil when the model has no price configured.
    public var costUSD: Double?
    /// Outcome of each output constraint the feature defines.
    public var constraints: [ConstraintOutcome]
    /// Quality scores from the configured scorers; empty when none ran.
    public var scores: [QualityScore]
    /// Why there is no usable output; nil on success.
    public var error: ResultError?
    /// Attempts after the first one.
    public var retries: Int
    /// True when the output came from the response cache rather than a model call.
    public var cacheHit: Bool
    /// When the result completed (millisecond precision once stored).
    public var completedAt: Date

    /// Creates a result record; never put secrets in any field.
    public init(
        key: ResultKey,
        feature: String,
        promptVariant: String,
        modelID: String,
        tier: ModelTier,
        renderedPromptHash: String,
        renderedPrompt: String? = nil,
        configVersion: Int? = nil,
        configHash: String? = nil,
        rawOutput: String?,
        parsedOutput: JSONValue? = nil,
        usage: TokenUsage?,
        timings: ResultTimings,
        costUSD: Double? = nil,
        constraints: [ConstraintOutcome] = [],
        scores: [QualityScore] = [],
        error: ResultError? = nil,
        retries: Int = 0,
        cacheHit: Bool = false,
        completedAt: Date = Date()
    ) {
        self.key = key
        self.feature = feature
        self.promptVariant = promptVariant
        self.modelID = modelID
        self.tier = tier
        self.renderedPromptHash = renderedPromptHash
        self.renderedPrompt = renderedPrompt
        self.configVersion = configVersion
        self.configHash = configHash
        self.rawOutput = rawOutput
        self.parsedOutput = parsedOutput
        self.usage = usage
        self.timings = timings
        self.costUSD = costUSD
        self.constraints = ConstraintOutcome.onePerName(constraints)
        self.scores = scores
        self.error = error
        self.retries = retries
        self.cacheHit = cacheHit
        self.completedAt = completedAt
    }

    /// True when every constraint passed; nil when the result was checked against none.
    public var allConstraintsPassed: Bool? {
        constraints.isEmpty ? nil : constraints.allSatisfy(\.passed)
    }
}

extension ResultRecord: StoredRecord {
    static let databaseTableName = "results"

    enum Columns {
        static let rowID = Column("id")
        static let runID = Column("run_id")
        static let caseID = Column("case_id")
        static let armID = Column("arm_id")
        static let repeatIndex = Column("repeat_index")
        static let feature = Column("feature")
        static let promptVariant = Column("prompt_variant")
        static let modelID = Column("model_id")
        static let tier = Column("tier")
        static let renderedPromptHash = Column("rendered_prompt_hash")
        static let renderedPrompt = Column("rendered_prompt")
        static let configVersion = Column("config_version")
        static let configHash = Column("config_hash")
        static let rawOutput = Column("raw_output")
        static let parsedOutput = Column("parsed_output_json")
        static let promptTokens = Column("prompt_tokens")
        static let completionTokens = Column("completion_tokens")
        static let cachedTokens = Column("cached_tokens")
        static let reasoningTokens = Column("reasoning_tokens")
        static let usageEstimated = Column("usage_estimated")
        static let ttftMs = Column("ttft_ms")
        static let totalMs = Column("total_ms")
        static let decodeTokensPerSecond = Column("decode_tokens_per_s")
        static let retryBackoffMs = Column("retry_backoff_ms")
        static let coldStart = Column("cold_start")
        static let costUSD = Column("cost_usd")
        static let constraints = Column("constraints_json")
        static let constraintsPassed = Column("constraints_passed")
        static let scores = Column("scores_json")
        static let errorKind = Column("error_kind")
        static let errorMessage = Column("error_message")
        static let retries = Column("retries")
        static let cacheHit = Column("cache_hit")
        static let completedAt = Column("completed_at")
        static let serverPromptMs = Column("server_prompt_ms")
        static let serverGenerationMs = Column("server_generation_ms")
    }

    init(row: Row) throws {
        let tierName: String = try row.decode(forColumn: Columns.tier)
        guard let tier = ModelTier(rawValue: tierName) else {
            throw RecordDecodingError(table: Self.databaseTableName, reason: "unknown model tier '\(tierName)'")
        }
        var usage: TokenUsage?
        if let promptTokens = try row.decode(Int?.self, forColumn: Columns.promptTokens) {
            usage = TokenUsage(
                promptTokens: promptTokens,
                completionTokens: try row.decode(forColumn: Columns.completionTokens),
                cachedTokens: try row.decode(forColumn: Columns.cachedTokens),
                reasoningTokens: try row.decode(forColumn: Columns.reasoningTokens),
                isEstimated: try row.decode(forColumn: Columns.usageEstimated)
            )
        }
        var error: ResultError?
        if let kind = try row.decode(String?.self, forColumn: Columns.errorKind) {
            error = ResultError(kind: kind, message: try row.decode(String?.self, forColumn: Columns.errorMessage) ?? "")
        }
        let parsedText: String? = try row.decode(forColumn: Columns.parsedOutput)
        self.init(
            key: ResultKey(
                runID: try row.decode(forColumn: Columns.runID),
                caseID: try row.decode(forColumn: Columns.caseID),
                armID: try row.decode(forColumn: Columns.armID),
                repeatIndex: try row.decode(forColumn: Columns.repeatIndex)
            ),
            feature: try row.decode(forColumn: Columns.feature),
            promptVariant: try row.decode(forColumn: Columns.promptVariant),
            modelID: try row.decode(forColumn: Columns.modelID),
            tier: tier,
            renderedPromptHash: try row.decode(forColumn: Columns.renderedPromptHash),
            renderedPrompt: try row.decode(forColumn: Columns.renderedPrompt),
            configVersion: try row.decode(forColumn: Columns.configVersion),
            configHash: try row.decode(forColumn: Columns.configHash),
            rawOutput: try row.decode(forColumn: Columns.rawOutput),
            parsedOutput: try parsedText.map { try StoreJSON.value(from: $0, column: "parsed_output_json") },
            usage: usage,
            timings: ResultTimings(
                ttftMs: try row.decode(forColumn: Columns.ttftMs),
                totalMs: try row.decode(forColumn: Columns.totalMs),
                decodeTokensPerSecond: try row.decode(forColumn: Columns.decodeTokensPerSecond),
                retryBackoffMs: try row.decode(forColumn: Columns.retryBackoffMs),
                coldStart: try row.decode(forColumn: Columns.coldStart),
                serverPromptMs: try row.decode(forColumn: Columns.serverPromptMs),
                serverGenerationMs: try row.decode(forColumn: Columns.serverGenerationMs)
            ),
            costUSD: try row.decode(forColumn: Columns.costUSD),
            constraints: try StoreJSON.constraints(from: row.decode(forColumn: Columns.constraints), column: "constraints_json"),
            scores: try StoreJSON.scores(from: row.decode(forColumn: Columns.scores), column: "scores_json"),
            error: error,
            retries: try row.decode(forColumn: Columns.retries),
            cacheHit: try row.decode(forColumn: Columns.cacheHit),
            completedAt: try row.decode(forColumn: Columns.completedAt)
        )
    }

    /// Every column an insert writes, in the order `insertValues()` gives them: one mapping for the GRDB record
    /// path and for the cached INSERT statement the result store runs per result.
    static let insertColumns: [Column] = [
        Columns.runID,
        Columns.caseID,
        Columns.armID,
        Columns.repeatIndex,
        Columns.feature,
        Columns.promptVariant,
        Columns.modelID,
        Columns.tier,
        Columns.renderedPromptHash,
        Columns.renderedPrompt,
        Columns.configVersion,
        Columns.configHash,
        Columns.rawOutput,
        Columns.parsedOutput,
        Columns.promptTokens,
        Columns.completionTokens,
        Columns.cachedTokens,
        Columns.reasoningTokens,
        Columns.usageEstimated,
        Columns.ttftMs,
        Columns.totalMs,
        Columns.decodeTokensPerSecond,
        Columns.retryBackoffMs,
        Columns.coldStart,
        Columns.costUSD,
        Columns.constraints,
        Columns.constraintsPassed,
        Columns.scores,
        Columns.errorKind,
        Columns.errorMessage,
        Columns.retries,
        Columns.cacheHit,
        Columns.completedAt,
        Columns.serverPromptMs,
        Columns.serverGenerationMs,
    ]

    /// `INSERT INTO results (…) VALUES (?, …)` over `insertColumns`.
    static let insertSQL =
        "INSERT INTO results (\(insertColumns.map(\.name).joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: insertColumns.count).joined(separator: ", ") + ")"

    /// The values of `insertColumns`, validated (non-finite numbers refused).
    func insertValues() throws -> [(any DatabaseValueConvertible)?] {
        var sink = ValueListSink()
        try addInsertValues(to: &sink)
        return sink.values
    }

    /// Hands the values of `insertColumns` to `sink` in order, validated (non-finite numbers refused).
    func addInsertValues(to sink: inout some ColumnSink) throws {
        try validate()
        sink.add(key.runID)
        sink.add(key.caseID)
        sink.add(key.armID)
        sink.add(key.repeatIndex)
        sink.add(feature)
        sink.add(promptVariant)
        sink.add(modelID)
        sink.add(tier.rawValue)
        sink.add(renderedPromptHash)
        sink.add(renderedPrompt)
        sink.add(configVersion)
        sink.add(configHash)
        sink.add(rawOutput)
        sink.add(try parsedOutput.map { try StoreJSON.encode($0, field: "parsed output") })
        sink.add(usage?.promptTokens)
        sink.add(usage?.completionTokens)
        sink.add(usage?.cachedTokens)
        sink.add(usage?.reasoningTokens)
        sink.add(usage?.isEstimated)
        sink.add(timings.ttftMs)
        sink.add(timings.totalMs)
        sink.add(timings.decodeTokensPerSecond)
        sink.add(timings.retryBackoffMs)
        sink.add(timings.coldStart)
        sink.add(costUSD)
        sink.add(try StoreJSON.encode(constraints))
        sink.add(allConstraintsPassed)
        sink.add(try StoreJSON.encode(scores))
        sink.add(error?.kind)
        sink.add(error?.message)
        sink.add(retries)
        sink.add(cacheHit)
        sink.add(StoreDate.text(completedAt))
        sink.add(timings.serverPromptMs)
        sink.add(timings.serverGenerationMs)
    }

    func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.insertColumns, try insertValues()) { container[column] = value }
    }

    /// SQLite stores NaN as NULL, which would then fail to decode; refuse non-finite numbers up front.
    package func validate() throws(StoreError) {
        let numbers: [(String, Double?)] = [
            ("ttft_ms", timings.ttftMs), ("total_ms", timings.totalMs),
            ("decode_tokens_per_s", timings.decodeTokensPerSecond), ("retry_backoff_ms", timings.retryBackoffMs),
            ("cost_usd", costUSD), ("server_prompt_ms", timings.serverPromptMs),
            ("server_generation_ms", timings.serverGenerationMs),
        ]
        for (field, value) in numbers {
            if let value, !value.isFinite {
                throw StoreError.invalidValue(field: "result \(key) \(field)", reason: "\(value) is not a finite number")
            }
        }
    }
}
