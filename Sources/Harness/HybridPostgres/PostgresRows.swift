import Foundation
import HybridCore
import HybridStore

/// The mapping between the store's records and PostgreSQL rows: statements with bound values out, records in.
///
/// Column names and JSON encodings are those of the SQLite tables (`SchemaMigration`), so the two backends hold
/// the same data; types are PostgreSQL's own (BOOLEAN, TIMESTAMPTZ, BYTEA). Dates are rounded to milliseconds, as
/// SQLite stores them.
enum PostgresRows {
    // MARK: - Runs

    static let runColumns =
        "id, features_json, dataset_path, dataset_hash, config_version, config_hash, started_at, finished_at, status, "
        + "arguments_json, planned_count, skipped_invalid_lines, seed"

    static func insert(_ run: RunRecord) throws(StoreError) -> PostgresQuery {
        let features = try StoreJSON.encode(run.features, field: "run features")
        let arguments = try StoreJSON.encode(run.arguments, field: "run arguments")
        return """
            INSERT INTO runs (\(unescaped: runColumns)) VALUES (\(run.id), \(features), \(run.datasetPath), \
            \(run.datasetHash), \(run.configVersion), \(run.configHash), \(run.startedAt.storedPrecision), \
            \(run.finishedAt?.storedPrecision), \(run.status.rawValue), \(arguments), \(run.plannedCount), \
            \(run.skippedInvalidLines), \(Int64(bitPattern: run.seed)))
            """
    }

    static func run(_ row: PostgresRow) throws -> RunRecord {
        let cells = row.makeRandomAccess()
        let statusName = try cells["status"].decode(String.self)
        guard let status = RunStatus(rawValue: statusName) else {
            throw RecordDecodingError(table: "runs", reason: "unknown run status '\(statusName)'")
        }
        return RunRecord(
            id: try cells["id"].decode(String.self),
            features: try StoreJSON.strings(from: cells["features_json"].decode(String.self), column: "features_json"),
            datasetPath: try cells["dataset_path"].decode(String.self),
            datasetHash: try cells["dataset_hash"].decode(String.self),
            configVersion: try cells["config_version"].decode(Int?.self),
            configHash: try cells["config_hash"].decode(String?.self),
            startedAt: try cells["started_at"].decode(Date.self),
            finishedAt: try cells["finished_at"].decode(Date?.self),
            status: status,
            arguments: try StoreJSON.value(from: cells["arguments_json"].decode(String.self), column: "arguments_json"),
            plannedCount: try cells["planned_count"].decode(Int.self),
            skippedInvalidLines: try cells["skipped_invalid_lines"].decode(Int.self),
            seed: UInt64(bitPattern: try cells["seed"].decode(Int64.self)))
    }

    // MARK: - Results

    static let resultColumns =
        "run_id, case_id, arm_id, repeat_index, feature, prompt_variant, model_id, tier, rendered_prompt_hash, "
        + "rendered_prompt, config_version, config_hash, raw_output, parsed_output_json, prompt_tokens, "
        + "completion_tokens, cached_tokens, reasoning_tokens, usage_estimated, ttft_ms, total_ms, decode_tokens_per_s, "
        + "retry_backoff_ms, cold_start, cost_usd, constraints_json, constraints_passed, scores_json, error_kind, "
        + "error_message, retries, cache_hit, completed_at, server_prompt_ms, server_generation_ms"

    /// Inserts the result unless its key is stored, and takes its key off the workers' queue; the one row
    /// returned counts the rows inserted (0 or 1).
    static func insertAndRelease(_ result: ResultRecord) throws(StoreError) -> PostgresQuery {
        try result.validate()
        let parsed = try result.parsedOutput.map { value throws(StoreError) in try StoreJSON.encode(value, field: "parsed output") }
        let constraints = try StoreJSON.encode(result.constraints, field: "constraint outcomes")
        let scores = try StoreJSON.encode(result.scores, field: "quality scores")
        let key = result.key
        let usage = result.usage
        let timings = result.timings
        return """
            WITH inserted AS (
                INSERT INTO results (\(unescaped: resultColumns)) VALUES (\(key.runID), \(key.caseID), \(key.armID), \
                \(key.repeatIndex), \(result.feature), \(result.promptVariant), \(result.modelID), \(result.tier.rawValue), \
                \(result.renderedPromptHash), \(result.renderedPrompt), \(result.configVersion), \(result.configHash), \
                \(result.rawOutput), \(parsed), \(usage?.promptTokens), \(usage?.completionTokens), \(usage?.cachedTokens), \
                \(usage?.reasoningTokens), \(usage?.isEstimated), \(timings.ttftMs), \(timings.totalMs), \
                \(timings.decodeTokensPerSecond), \(timings.retryBackoffMs), \(timings.coldStart), \(result.costUSD), \
                \(constraints), \(result.allConstraintsPassed), \(scores), \(result.error?.kind), \(result.error?.message), \
                \(result.retries), \(result.cacheHit), \(result.completedAt.storedPrecision), \(timings.serverPromptMs), \
                \(timings.serverGenerationMs))
                ON CONFLICT (run_id, case_id, arm_id, repeat_index) DO NOTHING
                RETURNING 1
            ), released AS (
                DELETE FROM work_claims WHERE run_id = $1 AND case_id = $2 AND arm_id = $3 AND repeat_index = $4
            )
            SELECT COUNT(*)::BIGINT FROM inserted
            """
    }

    static func result(_ row: PostgresRow) throws -> ResultRecord {
        let cells = row.makeRandomAccess()
        let tierName = try cells["tier"].decode(String.self)
        guard let tier = ModelTier(rawValue: tierName) else {
            throw RecordDecodingError(table: "results", reason: "unknown model tier '\(tierName)'")
        }
        var usage: TokenUsage?
        if let promptTokens = try cells["prompt_tokens"].decode(Int?.self) {
            usage = TokenUsage(
                promptTokens: promptTokens,
                completionTokens: try cells["completion_tokens"].decode(Int.self),
                cachedTokens: try cells["cached_tokens"].decode(Int.self),
                reasoningTokens: try cells["reasoning_tokens"].decode(Int.self),
                isEstimated: try cells["usage_estimated"].decode(Bool.self))
        }
        let error = try cells["error_kind"].decode(String?.self).map { kind in
            ResultError(kind: kind, message: try cells["error_message"].decode(String?.self) ?? "")
        }
        return ResultRecord(
            key: ResultKey(
                runID: try cells["run_id"].decode(String.self), caseID: try cells["case_id"].decode(String.self),
                armID: try cells["arm_id"].decode(String.self), repeatIndex: try cells["repeat_index"].decode(Int.self)),
            feature: try cells["feature"].decode(String.self),
            promptVariant: try cells["prompt_variant"].decode(String.self),
            modelID: try cells["model_id"].decode(String.self),
            tier: tier,
            renderedPromptHash: try cells["rendered_prompt_hash"].decode(String.self),
            renderedPrompt: try cells["rendered_prompt"].decode(String?.self),
            configVersion: try cells["config_version"].decode(Int?.self),
            configHash: try cells["config_hash"].decode(String?.self),
            rawOutput: try cells["raw_output"].decode(String?.self),
            parsedOutput: try cells["parsed_output_json"].decode(String?.self).map {
                try StoreJSON.value(from: $0, column: "parsed_output_json")
            },
            usage: usage,
            timings: try timings(cells),
            costUSD: try cells["cost_usd"].decode(Double?.self),
            constraints: try StoreJSON.constraints(from: cells["constraints_json"].decode(String.self), column: "constraints_json"),
            scores: try StoreJSON.scores(from: cells["scores_json"].decode(String.self), column: "scores_json"),
            error: error,
            retries: try cells["retries"].decode(Int.self),
            cacheHit: try cells["cache_hit"].decode(Bool.self),
            completedAt: try cells["completed_at"].decode(Date.self))
    }

    private static func timings(_ cells: PostgresRandomAccessRow) throws -> ResultTimings {
        ResultTimings(
            ttftMs: try cells["ttft_ms"].decode(Double?.self),
            totalMs: try cells["total_ms"].decode(Double.self),
            decodeTokensPerSecond: try cells["decode_tokens_per_s"].decode(Double?.self),
            retryBackoffMs: try cells["retry_backoff_ms"].decode(Double.self),
            coldStart: try cells["cold_start"].decode(Bool.self),
            serverPromptMs: try cells["server_prompt_ms"].decode(Double?.self),
            serverGenerationMs: try cells["server_generation_ms"].decode(Double?.self))
    }

    // MARK: - Response cache

    static let cacheColumns =
        "request_hash, model_id, text, structured_json, prompt_tokens, completion_tokens, cached_tokens, "
        + "reasoning_tokens, usage_estimated, ttft_ms, total_ms, finish_reason, created_at"

    /// Stores or replaces the entry for its request hash.
    static func upsert(_ response: CachedResponseRecord) throws(StoreError) -> PostgresQuery {
        if !response.totalMs.isFinite || !(response.ttftMs?.isFinite ?? true) {
            throw StoreError.invalidValue(field: "cached response \(response.requestHash) timings", reason: "not a finite number")
        }
        let structured = try response.structured.map { value throws(StoreError) in
            try StoreJSON.encode(value, field: "cached structured output")
        }
        let usage = response.usage
        return """
            INSERT INTO response_cache (\(unescaped: cacheColumns)) VALUES (\(response.requestHash), \(response.modelID), \
            \(response.text), \(structured), \(usage.promptTokens), \(usage.completionTokens), \(usage.cachedTokens), \
            \(usage.reasoningTokens), \(usage.isEstimated), \(response.ttftMs), \(response.totalMs), \
            \(response.finishReason), \(response.createdAt.storedPrecision))
            ON CONFLICT (request_hash) DO UPDATE SET model_id = excluded.model_id, text = excluded.text, \
            structured_json = excluded.structured_json, prompt_tokens = excluded.prompt_tokens, \
            completion_tokens = excluded.completion_tokens, cached_tokens = excluded.cached_tokens, \
            reasoning_tokens = excluded.reasoning_tokens, usage_estimated = excluded.usage_estimated, \
            ttft_ms = excluded.ttft_ms, total_ms = excluded.total_ms, finish_reason = excluded.finish_reason, \
            created_at = excluded.created_at
            """
    }

    static func cachedResponse(_ row: PostgresRow) throws -> CachedResponseRecord {
        let cells = row.makeRandomAccess()
        return CachedResponseRecord(
            requestHash: try cells["request_hash"].decode(String.self),
            modelID: try cells["model_id"].decode(String.self),
            text: try cells["text"].decode(String.self),
            structured: try cells["structured_json"].decode(String?.self).map {
                try StoreJSON.value(from: $0, column: "structured_json")
            },
            usage: TokenUsage(
                promptTokens: try cells["prompt_tokens"].decode(Int.self),
                completionTokens: try cells["completion_tokens"].decode(Int.self),
                cachedTokens: try cells["cached_tokens"].decode(Int.self),
                reasoningTokens: try cells["reasoning_tokens"].decode(Int.self),
                isEstimated: try cells["usage_estimated"].decode(Bool.self)),
            ttftMs: try cells["ttft_ms"].decode(Double?.self),
            totalMs: try cells["total_ms"].decode(Double.self),
            finishReason: try cells["finish_reason"].decode(String?.self),
            createdAt: try cells["created_at"].decode(Date.self))
    }
}
