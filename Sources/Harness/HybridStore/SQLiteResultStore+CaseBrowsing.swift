import Foundation
import GRDB
import HybridCore

/// Paged, filtered reads for browsing a run case by case (`hybrid view`). Kept apart from the aggregate and
/// streaming reads that reports use: these select only the columns a page shows and let SQLite do the filtering.
extension SQLiteResultStore {
    /// Results per (feature, arm) of the run, and how many of them were never sent, sorted by feature then arm.
    public func armCounts(run: String) async throws(StoreError) -> [ArmResultCount] {
        try await database.read("count results per arm of run \(run)") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT feature, arm_id, COUNT(*), SUM(error_kind IS NOT NULL AND error_kind = 'unavailable') FROM results
                    WHERE run_id = ? GROUP BY feature, arm_id ORDER BY feature, arm_id
                    """,
                arguments: [run]
            ).map { row in
                ArmResultCount(
                    feature: try row.decode(atIndex: 0), armID: try row.decode(atIndex: 1), count: try row.decode(atIndex: 2),
                    notMeasuredCount: try row.decode(atIndex: 3))
            }
        }
    }

    /// The constraint names found in the first `sampleSize` checked results of the feature (every result of a
    /// feature is checked against the same constraints, so a sample names them all without parsing the whole run).
    public func constraintNames(run: String, feature: String?, sampleSize: Int = 500) async throws(StoreError) -> [String] {
        let featureClause = feature == nil ? "" : "AND feature = :feature"
        let sql = """
            SELECT DISTINCT json_extract(j.value, '$.name') FROM (
                SELECT constraints_json FROM results
                WHERE run_id = :run \(featureClause) AND constraints_passed IS NOT NULL LIMIT :sample
            ) AS r, json_each(r.constraints_json) AS j ORDER BY 1
            """
        var arguments: [String: (any DatabaseValueConvertible)?] = ["run": run, "sample": sampleSize]
        if let feature { arguments["feature"] = feature }
        let values = StatementArguments(arguments)
        return try await database.read("read constraint names of run \(run)") { db in
            try String.fetchAll(db, sql: sql, arguments: values)
        }
    }

    /// One page of the ids of the run's cases that match `filter`, sorted by id.
    public func caseIDs(run: String, matching filter: CaseFilter, offset: Int, limit: Int) async throws(StoreError) -> [String] {
        var query = CaseFilterSQL(run: run, filter: filter)
        query.arguments["limit"] = max(0, limit)
        query.arguments["offset"] = max(0, offset)
        let sql = query.groupedCases + " ORDER BY r.case_id LIMIT :limit OFFSET :offset"
        let arguments = StatementArguments(query.arguments)
        return try await database.read("list cases of run \(run)") { db in
            try String.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    /// How many of the run's cases match `filter`.
    public func caseCount(run: String, matching filter: CaseFilter) async throws(StoreError) -> Int {
        let query = CaseFilterSQL(run: run, filter: filter)
        let sql = "SELECT COUNT(*) FROM (\(query.groupedCases))"
        let arguments = StatementArguments(query.arguments)
        return try await database.read("count cases of run \(run)") { db in
            try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }

    /// Every result of these cases (all arms and repeats; of one feature when given), sorted by case, repeat, arm.
    public func resultCells(run: String, feature: String?, caseIDs: [String]) async throws(StoreError) -> [ResultCell] {
        guard !caseIDs.isEmpty else { return [] }
        var arguments: [(any DatabaseValueConvertible)?] = [run]
        arguments += caseIDs.map { $0 }
        var sql = "SELECT \(ResultCell.columns) FROM results WHERE run_id = ? AND case_id IN ("
            + Array(repeating: "?", count: caseIDs.count).joined(separator: ", ") + ")"
        if let feature {
            sql += " AND feature = ?"
            arguments.append(feature)
        }
        let statement = sql + " ORDER BY case_id, repeat_index, arm_id"
        let values = StatementArguments(arguments)
        return try await database.read("read results of \(caseIDs.count) cases of run \(run)") { db in
            try Row.fetchAll(db, sql: statement, arguments: values).map { try ResultCell(row: $0) }
        }
    }
}

/// The SQL of a ``CaseFilter``: one row per matching case id, with named arguments.
private struct CaseFilterSQL {
    /// 1 when every constraint passed, 0 when one failed or the request errored, NULL when there was nothing to
    /// check or the arm was never sent (so MIN and MAX skip it): ``ResultCell/passed`` in SQL.
    static let passed = """
        (CASE WHEN error_kind = 'unavailable' THEN NULL WHEN error_kind IS NOT NULL THEN 0 ELSE constraints_passed END)
        """

    var groupedCases: String
    var arguments: [String: (any DatabaseValueConvertible)?]

    init(run: String, filter: CaseFilter) {
        arguments = ["run": run]
        if let feature = filter.feature { arguments["feature"] = feature }
        /// The rows of the run (and feature) under a table alias.
        func scope(_ alias: String) -> String {
            "\(alias).run_id = :run" + (filter.feature == nil ? "" : " AND \(alias).feature = :feature")
        }
        var having: [String] = []
        if filter.failingOnly {
            having.append("MIN(\(Self.passed)) = 0")
        }
        if filter.armsDisagree {
            // Per repeat: the same case and repeat passed in one measured arm and failed in another.
            having.append("""
                EXISTS (SELECT 1 FROM results AS d WHERE \(scope("d")) AND d.case_id = r.case_id GROUP BY d.repeat_index \
                HAVING MIN(\(Self.passed)) = 0 AND MAX(\(Self.passed)) = 1)
                """)
        }
        if let constraint = filter.failingConstraint {
            // CASE evaluates lazily, so the JSON is parsed only for results that failed some constraint.
            having.append("""
                MAX(CASE WHEN constraints_passed = 0 THEN EXISTS (SELECT 1 FROM json_each(r.constraints_json) AS j \
                WHERE json_extract(j.value, '$.name') = :constraint AND json_extract(j.value, '$.passed') = 0) ELSE 0 END) = 1
                """)
            arguments["constraint"] = constraint
        }
        if let text = filter.text, !text.isEmpty {
            having.append("""
                MAX(r.case_id LIKE :pattern ESCAPE '\\' OR r.rendered_prompt LIKE :pattern ESCAPE '\\' \
                OR r.raw_output LIKE :pattern ESCAPE '\\') = 1
                """)
            arguments["pattern"] = "%" + Self.escapeLike(text) + "%"
        }
        groupedCases = "SELECT r.case_id FROM results AS r WHERE \(scope("r")) GROUP BY r.case_id"
        if !having.isEmpty {
            groupedCases += " HAVING " + having.joined(separator: " AND ")
        }
    }

    /// `%`, `_` and the escape character itself match literally.
    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

extension ResultCell {
    /// The columns ``init(row:)`` reads, by position.
    static let columns = """
        run_id, case_id, arm_id, repeat_index, feature, rendered_prompt, raw_output, constraints_json, scores_json, \
        ttft_ms, total_ms, prompt_tokens, completion_tokens, usage_estimated, cost_usd, error_kind, error_message, cache_hit
        """

    init(row: Row) throws {
        var usage: TokenUsage?
        if let promptTokens = try row.decode(Int?.self, atIndex: 11) {
            usage = TokenUsage(
                promptTokens: promptTokens, completionTokens: try row.decode(Int?.self, atIndex: 12) ?? 0,
                isEstimated: try row.decode(Bool?.self, atIndex: 13) ?? false)
        }
        var error: ResultError?
        if let kind = try row.decode(String?.self, atIndex: 15) {
            error = ResultError(kind: kind, message: try row.decode(String?.self, atIndex: 16) ?? "")
        }
        self.init(
            key: ResultKey(
                runID: try row.decode(atIndex: 0), caseID: try row.decode(atIndex: 1), armID: try row.decode(atIndex: 2),
                repeatIndex: try row.decode(atIndex: 3)),
            feature: try row.decode(atIndex: 4),
            renderedPrompt: try row.decode(atIndex: 5),
            rawOutput: try row.decode(atIndex: 6),
            constraints: try StoreJSON.constraints(from: row.decode(atIndex: 7), column: "constraints_json"),
            scores: try StoreJSON.scores(from: row.decode(atIndex: 8), column: "scores_json"),
            ttftMs: try row.decode(atIndex: 9),
            totalMs: try row.decode(atIndex: 10),
            usage: usage,
            costUSD: try row.decode(atIndex: 14),
            error: error,
            cacheHit: try row.decode(atIndex: 17)
        )
    }
}
