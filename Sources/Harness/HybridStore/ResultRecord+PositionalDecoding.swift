import Foundation
import GRDB
import HybridCore

extension ResultRecord {
    /// The columns `forEachResult` selects, in the order ``init(positionalRow:)`` reads them.
    ///
    /// Why positional: decoding by column name costs a case-insensitive dictionary lookup (a string hash) per
    /// column per row; over 33 columns that was most of the time of streaming a million-result run for a report
    /// (hybrid-bench report). Reading by index does the same decoding without the lookups.
    static let positionalColumns = """
        id, run_id, case_id, arm_id, repeat_index, feature, prompt_variant, model_id, tier, rendered_prompt_hash, \
        rendered_prompt, config_version, config_hash, raw_output, parsed_output_json, prompt_tokens, completion_tokens, \
        cached_tokens, reasoning_tokens, usage_estimated, ttft_ms, total_ms, decode_tokens_per_s, retry_backoff_ms, \
        cold_start, cost_usd, constraints_json, scores_json, error_kind, error_message, retries, cache_hit, completed_at, \
        server_prompt_ms, server_generation_ms
        """

    /// Decodes a row selected with ``positionalColumns`` (index 0 is the rowid, which the caller reads).
    init(positionalRow row: Row) throws {
        let tierName: String = try row.decode(atIndex: 8)
        guard let tier = ModelTier(rawValue: tierName) else {
            throw RecordDecodingError(table: Self.databaseTableName, reason: "unknown model tier '\(tierName)'")
        }
        var usage: TokenUsage?
        if let promptTokens = try row.decode(Int?.self, atIndex: 15) {
            usage = TokenUsage(
                promptTokens: promptTokens,
                completionTokens: try row.decode(atIndex: 16),
                cachedTokens: try row.decode(atIndex: 17),
                reasoningTokens: try row.decode(atIndex: 18),
                isEstimated: try row.decode(atIndex: 19)
            )
        }
        var error: ResultError?
        if let kind = try row.decode(String?.self, atIndex: 28) {
            error = ResultError(kind: kind, message: try row.decode(String?.self, atIndex: 29) ?? "")
        }
        let parsedText: String? = try row.decode(atIndex: 14)
        self.init(
            key: ResultKey(
                runID: try row.decode(atIndex: 1),
                caseID: try row.decode(atIndex: 2),
                armID: try row.decode(atIndex: 3),
                repeatIndex: try row.decode(atIndex: 4)
            ),
            feature: try row.decode(atIndex: 5),
            promptVariant: try row.decode(atIndex: 6),
            modelID: try row.decode(atIndex: 7),
            tier: tier,
            renderedPromptHash: try row.decode(atIndex: 9),
            renderedPrompt: try row.decode(atIndex: 10),
            configVersion: try row.decode(atIndex: 11),
            configHash: try row.decode(atIndex: 12),
            rawOutput: try row.decode(atIndex: 13),
            parsedOutput: try parsedText.map { try StoreJSON.value(from: $0, column: "parsed_output_json") },
            usage: usage,
            timings: ResultTimings(
                ttftMs: try row.decode(atIndex: 20),
                totalMs: try row.decode(atIndex: 21),
                decodeTokensPerSecond: try row.decode(atIndex: 22),
                retryBackoffMs: try row.decode(atIndex: 23),
                coldStart: try row.decode(atIndex: 24),
                serverPromptMs: try row.decode(atIndex: 33),
                serverGenerationMs: try row.decode(atIndex: 34)
            ),
            costUSD: try row.decode(atIndex: 25),
            constraints: try StoreJSON.constraints(from: row.decode(atIndex: 26), column: "constraints_json"),
            scores: try StoreJSON.scores(from: row.decode(atIndex: 27), column: "scores_json"),
            error: error,
            retries: try row.decode(atIndex: 30),
            cacheHit: try row.decode(atIndex: 31),
            completedAt: try row.decode(atIndex: 32)
        )
    }
}

extension Stored where Value == ResultRecord {
    /// Like `init(row:)`, for rows selected with `ResultRecord.positionalColumns`, with the same error mapping.
    init(positionalRow row: Row) throws {
        do {
            self.init(try ResultRecord(positionalRow: row))
        } catch var error as RecordDecodingError {
            error.table = error.table ?? ResultRecord.databaseTableName
            throw error
        } catch {
            throw RecordDecodingError(table: ResultRecord.databaseTableName, reason: "\(error)")
        }
    }
}
