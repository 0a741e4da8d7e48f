import GRDB
import HybridCore

extension SQLiteResultStore {
    /// Pages of typed columns plus the side-table rows of the same id range, merged in Swift: no JSON and no text
    /// column is read, which is what made streaming whole rows for a million-result report slow.
    nonisolated(nonsending) public func forEachMeasures(
        run: String,
        batchSize: Int,
        _ body: (ResultMeasures) async throws -> Void
    ) async throws {
        let limit = max(1, batchSize)
        var after = Int64.min
        while true {
            let cursorStart = after
            let page = try await database.read("read results of run \(run)") { db in
                try MeasuresPage.read(db, run: run, after: cursorStart, limit: limit)
            }
            for measures in page.measures {
                try await body(measures)
            }
            guard page.measures.count == limit, let lastRowID = page.rowIDs.last else { return }
            after = lastRowID
        }
    }
}

/// One page of ``ResultMeasures`` with their row ids (ascending), read in one transaction.
struct MeasuresPage: Sendable {
    var measures: [ResultMeasures] = []
    var rowIDs: [Int64] = []

    /// The columns of `results` that measures need, in the order `measures(row:run:)` reads them.
    static let columns = """
        id, case_id, arm_id, repeat_index, feature, prompt_variant, model_id, tier, prompt_tokens, completion_tokens, \
        cached_tokens, reasoning_tokens, usage_estimated, ttft_ms, total_ms, decode_tokens_per_s, retry_backoff_ms, \
        cold_start, server_prompt_ms, server_generation_ms, cost_usd, error_kind, error_message, retries, cache_hit, \
        raw_output IS NOT NULL
        """

    static func read(_ db: Database, run: String, after: Int64, limit: Int) throws -> MeasuresPage {
        var page = MeasuresPage()
        page.measures.reserveCapacity(limit)
        page.rowIDs.reserveCapacity(limit)
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT \(columns) FROM results WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?",
            arguments: [run, after, limit]
        )
        while let row = try rows.next() {
            page.rowIDs.append(try row.decode(Int64.self, atIndex: 0))
            page.measures.append(try measures(row: row, run: run))
        }
        guard let first = page.rowIDs.first, let last = page.rowIDs.last else { return page }
        try page.attachConstraints(db, from: first, to: last)
        try page.attachScores(db, from: first, to: last)
        return page
    }

    /// Side rows come ordered by (result_id, ordinal); ids of other runs inside the range are skipped.
    private mutating func attachConstraints(_ db: Database, from first: Int64, to last: Int64) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT result_id, name, passed FROM result_constraints WHERE result_id BETWEEN ? AND ? ORDER BY result_id, ordinal",
            arguments: [first, last]
        )
        var index = 0
        while let row = try rows.next() {
            guard let position = advance(&index, to: try row.decode(Int64.self, atIndex: 0)) else { continue }
            measures[position].constraints.append(
                ResultMeasures.Check(name: try row.decode(atIndex: 1), passed: try row.decode(atIndex: 2)))
        }
    }

    private mutating func attachScores(_ db: Database, from first: Int64, to last: Int64) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT result_id, scorer, value FROM result_scores WHERE result_id BETWEEN ? AND ? ORDER BY result_id, ordinal",
            arguments: [first, last]
        )
        var index = 0
        while let row = try rows.next() {
            guard let position = advance(&index, to: try row.decode(Int64.self, atIndex: 0)) else { continue }
            measures[position].scores.append(
                ResultMeasures.Score(scorer: try row.decode(atIndex: 1), value: try row.decode(atIndex: 2)))
        }
    }

    /// Moves `index` forward to `rowID`'s position in the page; nil when the row belongs to another run.
    private func advance(_ index: inout Int, to rowID: Int64) -> Int? {
        while index < rowIDs.count, rowIDs[index] < rowID { index += 1 }
        return index < rowIDs.count && rowIDs[index] == rowID ? index : nil
    }

    private static func measures(row: Row, run: String) throws -> ResultMeasures {
        let tierName: String = try row.decode(atIndex: 7)
        guard let tier = ModelTier(rawValue: tierName) else {
            throw RecordDecodingError(table: ResultRecord.databaseTableName, reason: "unknown model tier '\(tierName)'")
        }
        var usage: TokenUsage?
        if let promptTokens = try row.decode(Int?.self, atIndex: 8) {
            usage = TokenUsage(
                promptTokens: promptTokens, completionTokens: try row.decode(atIndex: 9),
                cachedTokens: try row.decode(atIndex: 10), reasoningTokens: try row.decode(atIndex: 11),
                isEstimated: try row.decode(atIndex: 12))
        }
        var error: ResultError?
        if let kind = try row.decode(String?.self, atIndex: 21) {
            error = ResultError(kind: kind, message: try row.decode(String?.self, atIndex: 22) ?? "")
        }
        return ResultMeasures(
            key: ResultKey(
                runID: run, caseID: try row.decode(atIndex: 1), armID: try row.decode(atIndex: 2),
                repeatIndex: try row.decode(atIndex: 3)),
            feature: try row.decode(atIndex: 4), promptVariant: try row.decode(atIndex: 5),
            modelID: try row.decode(atIndex: 6), tier: tier, usage: usage,
            timings: ResultTimings(
                ttftMs: try row.decode(atIndex: 13), totalMs: try row.decode(atIndex: 14),
                decodeTokensPerSecond: try row.decode(atIndex: 15), retryBackoffMs: try row.decode(atIndex: 16),
                coldStart: try row.decode(atIndex: 17), serverPromptMs: try row.decode(atIndex: 18),
                serverGenerationMs: try row.decode(atIndex: 19)),
            costUSD: try row.decode(atIndex: 20), constraints: [], scores: [], error: error,
            retries: try row.decode(atIndex: 23), cacheHit: try row.decode(atIndex: 24),
            hasOutput: try row.decode(atIndex: 25))
    }
}
