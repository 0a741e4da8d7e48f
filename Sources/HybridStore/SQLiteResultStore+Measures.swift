import GRDB
import HybridCore

extension SQLiteResultStore {
    /// Pages of typed columns plus the side-table rows of the same id range, merged in Swift: no JSON and no text
    /// column is read, which is what made streaming whole rows for a million-result report slow.
    ///
    /// Each page first reads its id range (index only), then the typed columns and the side-table rows of that range
    /// at once on two pool readers; and the next page is read while `body` consumes the current one, so decoding and
    /// aggregating share the two cores. Reading by id range keeps the page consistent across those transactions:
    /// results are never updated, and a row inserted later gets an id above the range.
    nonisolated(nonsending) public func forEachMeasures(
        run: String,
        batchSize: Int,
        _ body: (ResultMeasures) async throws -> Void
    ) async throws {
        let limit = max(1, batchSize)
        let database = database
        func prefetch(after cursorStart: Int64) -> Task<MeasuresPage, any Error> {
            Task { try await MeasuresPage.read(database, run: run, after: cursorStart, limit: limit) }
        }
        var next: Task<MeasuresPage, any Error>? = prefetch(after: Int64.min)
        defer { next?.cancel() }
        while let pending = next {
            // The pages are read in tasks of their own, which the caller's cancellation does not reach.
            if Task.isCancelled {
                throw StoreError.cancelled(path: database.path, operation: "read results of run \(run)")
            }
            let page = try await pending.value
            next = nil
            if page.isFull, let lastRowID = page.rowIDs.last {
                next = prefetch(after: lastRowID)
            }
            for measures in page.measures {
                try await body(measures)
            }
        }
    }
}

/// One page of ``ResultMeasures`` with their row ids (ascending), read through the raw SQLite statements
/// (``StatementColumns``), with repeated texts built once per page (``TextInterner``).
struct MeasuresPage: Sendable {
    var measures: [ResultMeasures] = []
    var rowIDs: [Int64] = []
    /// True when the page holds `limit` results, so another may follow.
    var isFull = false

    /// The columns of `results` that measures need, in the order `MeasuresRowReader` reads them.
    static let columns = """
        id, case_id, arm_id, repeat_index, feature, prompt_variant, model_id, tier, prompt_tokens, completion_tokens, \
        cached_tokens, reasoning_tokens, usage_estimated, ttft_ms, total_ms, decode_tokens_per_s, retry_backoff_ms, \
        cold_start, server_prompt_ms, server_generation_ms, cost_usd, error_kind, error_message, retries, cache_hit, \
        raw_output IS NOT NULL
        """

    /// The page of the run's results after row id `after`: its id range, then its columns and side rows at once.
    static func read(_ database: HybridDatabase, run: String, after: Int64, limit: Int) async throws -> MeasuresPage {
        let operation = "read results of run \(run)"
        let range = try await database.read(operation) { db in try idRange(db, run: run, after: after, limit: limit) }
        guard let range else { return MeasuresPage() }
        async let sideRows = database.read(operation) { db in try SideRows.read(db, ids: range.ids) }
        var page = try await database.read(operation) { db in try columns(db, run: run, ids: range.ids) }
        page.attach(try await sideRows)
        page.isFull = range.count == limit
        return page
    }

    /// The first and last id of the page and how many results it holds; nil when none is left.
    private static func idRange(
        _ db: Database, run: String, after: Int64, limit: Int
    ) throws -> (ids: ClosedRange<Int64>, count: Int)? {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT MIN(id), MAX(id), COUNT(*) FROM \
                (SELECT id FROM results WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?)
                """,
            arguments: [run, after, limit])
        guard let row, let first = row[0] as Int64?, let last = row[1] as Int64? else { return nil }
        return (first...last, row[2])
    }

    private static func columns(_ db: Database, run: String, ids: ClosedRange<Int64>) throws -> MeasuresPage {
        var page = MeasuresPage()
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM results WHERE run_id = ? AND id BETWEEN ? AND ? ORDER BY id")
        let rows = try Row.fetchCursor(statement, arguments: [run, ids.lowerBound, ids.upperBound])
        var reader = MeasuresRowReader(columns: StatementColumns(statement: statement.sqliteStatement), run: run)
        while try rows.next() != nil {
            page.rowIDs.append(reader.columns.int64(0))
            page.measures.append(try reader.measures())
        }
        return page
    }

    /// Side rows come ordered by (result_id, ordinal); ids of other runs inside the range are skipped.
    private mutating func attach(_ side: SideRows) {
        var index = 0
        for (resultID, check) in side.constraints {
            guard let position = advance(&index, to: resultID) else { continue }
            measures[position].constraints.append(check)
        }
        index = 0
        for (resultID, score) in side.scores {
            guard let position = advance(&index, to: resultID) else { continue }
            measures[position].scores.append(score)
        }
    }

    /// Moves `index` forward to `rowID`'s position in the page; nil when the row belongs to another run.
    private func advance(_ index: inout Int, to rowID: Int64) -> Int? {
        while index < rowIDs.count, rowIDs[index] < rowID { index += 1 }
        return index < rowIDs.count && rowIDs[index] == rowID ? index : nil
    }
}

/// The `v3` side-table rows (constraint verdicts, score values) of an id range, ordered by (result id, ordinal).
struct SideRows: Sendable {
    var constraints: [(Int64, ResultMeasures.Check)] = []
    var scores: [(Int64, ResultMeasures.Score)] = []

    static func read(_ db: Database, ids: ClosedRange<Int64>) throws -> SideRows {
        var side = SideRows()
        try forEach(
            db, sql: "SELECT result_id, name, passed FROM result_constraints WHERE result_id BETWEEN ? AND ? ORDER BY result_id, ordinal",
            ids: ids
        ) { id, columns, names in
            side.constraints.append((id, ResultMeasures.Check(name: names.text(columns.statement, 1) ?? "", passed: columns.bool(2))))
        }
        try forEach(
            db, sql: "SELECT result_id, scorer, value FROM result_scores WHERE result_id BETWEEN ? AND ? ORDER BY result_id, ordinal",
            ids: ids
        ) { id, columns, names in
            side.scores.append((id, ResultMeasures.Score(scorer: names.text(columns.statement, 1) ?? "", value: columns.double(2))))
        }
        return side
    }

    private static func forEach(
        _ db: Database, sql: String, ids: ClosedRange<Int64>, _ body: (Int64, StatementColumns, inout TextInterner) -> Void
    ) throws {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: [ids.lowerBound, ids.upperBound])
        let columns = StatementColumns(statement: statement.sqliteStatement)
        var names = TextInterner()
        while try rows.next() != nil {
            body(columns.int64(0), columns, &names)
        }
    }
}

/// Builds ``ResultMeasures`` from the current row of the page's statement (columns in ``MeasuresPage/columns``
/// order), one interner per repeating text column.
struct MeasuresRowReader {
    let columns: StatementColumns
    let run: String
    private var caseIDs = TextInterner(capacity: 2)
    private var armIDs = TextInterner()
    private var features = TextInterner()
    private var promptVariants = TextInterner()
    private var modelIDs = TextInterner()
    private var tiers = TextInterner()
    private var errorKinds = TextInterner()

    init(columns: StatementColumns, run: String) {
        self.columns = columns
        self.run = run
    }

    mutating func measures() throws -> ResultMeasures {
        let statement = columns.statement
        let tierName = tiers.text(statement, 7) ?? ""
        guard let tier = ModelTier(rawValue: tierName) else {
            throw RecordDecodingError(table: ResultRecord.databaseTableName, reason: "unknown model tier '\(tierName)'")
        }
        return ResultMeasures(
            key: ResultKey(
                runID: run, caseID: caseIDs.text(statement, 1) ?? "", armID: armIDs.text(statement, 2) ?? "",
                repeatIndex: columns.int(3)),
            feature: features.text(statement, 4) ?? "", promptVariant: promptVariants.text(statement, 5) ?? "",
            modelID: modelIDs.text(statement, 6) ?? "", tier: tier, usage: usage(),
            timings: ResultTimings(
                ttftMs: columns.optionalDouble(13), totalMs: columns.double(14),
                decodeTokensPerSecond: columns.optionalDouble(15), retryBackoffMs: columns.double(16),
                coldStart: columns.bool(17), serverPromptMs: columns.optionalDouble(18),
                serverGenerationMs: columns.optionalDouble(19)),
            costUSD: columns.optionalDouble(20), constraints: [], scores: [], error: error(),
            retries: columns.int(23), cacheHit: columns.bool(24), hasOutput: columns.bool(25))
    }

    private func usage() -> TokenUsage? {
        guard let promptTokens = columns.optionalInt(8) else { return nil }
        return TokenUsage(
            promptTokens: promptTokens, completionTokens: columns.int(9), cachedTokens: columns.int(10),
            reasoningTokens: columns.int(11), isEstimated: columns.bool(12))
    }

    private mutating func error() -> ResultError? {
        guard let kind = errorKinds.text(columns.statement, 21) else { return nil }
        // Messages are read only for errors (about one result in a hundred), so they are not interned.
        let message = columns.string(22) ?? ""
        return ResultError(kind: kind, message: message)
    }
}
