import GRDB
import HybridCore

extension SQLiteResultStore {
    /// Pages of ``MeasureColumns`` from the narrow `result_measures` table (one packed blob per result, `v7`): no
    /// JSON, prompt or output is read, and no value is built per result (texts are coded once per page).
    ///
    /// Each page's id range is read first (index only, a fraction of a millisecond); then its packed rows on a pool
    /// reader (or, should the table miss a result of the range, its typed columns and side-table rows at once on
    /// two readers). Two pages are read ahead while `body` consumes the current one,
    /// so the two cores are kept busy by SQLite and aggregation together. Reading by id range keeps a page
    /// consistent across those transactions: results are never updated, and a row inserted later gets an id above
    /// the range.
    nonisolated(nonsending) public func forEachMeasureColumns(
        run: String,
        batchSize: Int,
        _ body: (MeasureColumns) async throws -> Void
    ) async throws {
        var reader = MeasuresPageReader(database: database, run: run, limit: max(1, batchSize))
        defer { reader.cancel() }
        try await reader.fill()
        while let page = try await reader.next() {
            // The pages are read in tasks of their own, which the caller's cancellation does not reach.
            if Task.isCancelled {
                throw StoreError.cancelled(path: database.path, operation: "read results of run \(run)")
            }
            try await reader.fill()
            if page.count > 0 { try await body(page) }
        }
    }

    /// The rows of ``forEachMeasureColumns(run:batchSize:_:)`` one value at a time.
    nonisolated(nonsending) public func forEachMeasures(
        run: String,
        batchSize: Int,
        _ body: (ResultMeasures) async throws -> Void
    ) async throws {
        try await forEachMeasureColumns(run: run, batchSize: batchSize) { page in
            for row in 0..<page.count { try await body(page.measures(at: row)) }
        }
    }
}

/// The pages of one run in order, with up to ``depth`` of them being read ahead in tasks of their own.
struct MeasuresPageReader {
    /// Pages read ahead: two keep both cores busy while the caller aggregates.
    static let depth = 2
    let database: HybridDatabase
    let run: String
    let limit: Int
    private var after = Int64.min
    private var more = true
    private var pending: [Task<MeasureColumns, any Error>] = []

    init(database: HybridDatabase, run: String, limit: Int) {
        self.database = database
        self.run = run
        self.limit = limit
    }

    /// Starts reading pages until ``depth`` are pending or the run has no more.
    mutating func fill() async throws {
        while more, pending.count < Self.depth {
            let (database, run, after, limit) = (database, run, after, limit)
            let range = try await database.read("read results of run \(run)") { db in
                try MeasuresPage.idRange(db, run: run, after: after, limit: limit)
            }
            guard let range else {
                more = false
                return
            }
            self.after = range.ids.upperBound
            more = range.count == limit
            pending.append(Task { try await MeasuresPage.read(database, run: run, ids: range.ids, count: range.count) })
        }
    }

    /// The next page in id order; nil when none is left.
    mutating func next() async throws -> MeasureColumns? {
        guard !pending.isEmpty else { return nil }
        return try await pending.removeFirst().value
    }

    func cancel() {
        for task in pending { task.cancel() }
    }
}

/// One page of ``MeasureColumns`` with their row ids (ascending), read through the raw SQLite statements
/// (``StatementColumns``), with repeated texts coded once per page (``TextInterner``).
struct MeasuresPage: Sendable {
    var columns: MeasureColumns
    var rowIDs: [Int64] = []

    /// The columns of `results` that measures need, in the order `MeasuresRowReader` reads them.
    static let columns = """
        id, case_id, arm_id, repeat_index, feature, prompt_variant, model_id, tier, prompt_tokens, completion_tokens, \
        cached_tokens, reasoning_tokens, usage_estimated, ttft_ms, total_ms, decode_tokens_per_s, retry_backoff_ms, \
        cold_start, server_prompt_ms, server_generation_ms, cost_usd, error_kind, error_message, retries, cache_hit, \
        raw_output IS NOT NULL
        """

    /// The run's results in `ids` (`count` of them): one row each from `result_measures` (`v7`). Should that table
    /// miss a result of the range, the page is read from the typed columns and side rows instead, at once on two
    /// readers.
    static func read(_ database: HybridDatabase, run: String, ids: ClosedRange<Int64>, count: Int) async throws -> MeasureColumns {
        let operation = "read results of run \(run)"
        if let packed = try await database.read(operation, { db in try packed(db, run: run, ids: ids, count: count) }) {
            return packed
        }
        async let sideRows = database.read(operation) { db in try SideRows.read(db, ids: ids) }
        var page = try await database.read(operation) { db in try columns(db, run: run, ids: ids, capacity: count) }
        page.columns.attach(try await sideRows, rowIDs: page.rowIDs)
        return page.columns
    }

    /// The page from the typed columns and side rows on one connection (the `v7` backfill packs these).
    static func readColumns(_ db: Database, run: String, ids: ClosedRange<Int64>, count: Int) throws -> MeasuresPage {
        var page = try columns(db, run: run, ids: ids, capacity: count)
        page.columns.attach(try SideRows.read(db, ids: ids), rowIDs: page.rowIDs)
        return page
    }

    static let packedSQL = "SELECT result_id, packed FROM result_measures WHERE result_id BETWEEN ? AND ? AND run_id = ? ORDER BY result_id"

    /// The page from `result_measures`; nil when it holds fewer than `count` of the range's results.
    private static func packed(_ db: Database, run: String, ids: ClosedRange<Int64>, count: Int) throws -> MeasureColumns? {
        var page = MeasureColumns(runID: run)
        page.reserveCapacity(count)
        let statement = try db.cachedStatement(sql: packedSQL)
        let rows = try Row.fetchCursor(statement, arguments: [ids.lowerBound, ids.upperBound, run])
        let columns = StatementColumns(statement: statement.sqliteStatement)
        var reader = PackedMeasuresReader()
        while try rows.next() != nil {
            try reader.append(columns.blob(1), rowID: columns.int64(0), to: &page)
        }
        return page.count == count ? page : nil
    }

    /// The first and last id of the page and how many results it holds; nil when none is left.
    static func idRange(
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

    /// `+run_id` keeps SQLite off the `(run_id)` index here: the id range is known, so walking the table's range
    /// in order and skipping other runs' rows beats one index lookup plus one table seek per row.
    private static func columns(
        _ db: Database, run: String, ids: ClosedRange<Int64>, capacity: Int
    ) throws -> MeasuresPage {
        var page = MeasuresPage(columns: MeasureColumns(runID: run))
        page.columns.reserveCapacity(capacity)
        page.rowIDs.reserveCapacity(capacity)
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM results WHERE +run_id = ? AND id BETWEEN ? AND ? ORDER BY id")
        let rows = try Row.fetchCursor(statement, arguments: [run, ids.lowerBound, ids.upperBound])
        var reader = MeasuresRowReader(columns: StatementColumns(statement: statement.sqliteStatement))
        while try rows.next() != nil {
            page.rowIDs.append(reader.columns.int64(0))
            try reader.append(to: &page.columns)
        }
        return page
    }
}

extension MeasureColumns {
    /// Cuts the side rows (ordered by result id, then ordinal) into the page's rows; rows of other runs inside the
    /// id range are skipped. The side rows' texts are coded again into the page's table.
    mutating func attach(_ side: SideRows, rowIDs: [Int64]) {
        var recoded = [Int32](repeating: -1, count: side.texts.count)
        func code(_ sideCode: Int32) -> Int32 {
            let index = Int(sideCode)
            if recoded[index] < 0 { recoded[index] = addText(side.texts[index]) }
            return recoded[index]
        }
        var constraint = 0
        var score = 0
        for rowID in rowIDs {
            while constraint < side.constraintIDs.count, side.constraintIDs[constraint] < rowID { constraint += 1 }
            while constraint < side.constraintIDs.count, side.constraintIDs[constraint] == rowID {
                appendConstraint(nameCode: code(side.constraintNameCodes[constraint]), passed: side.constraintPassed[constraint])
                constraint += 1
            }
            while score < side.scoreIDs.count, side.scoreIDs[score] < rowID { score += 1 }
            while score < side.scoreIDs.count, side.scoreIDs[score] == rowID {
                appendScore(scorerCode: code(side.scorerCodes[score]), value: side.scoreValues[score])
                score += 1
            }
            endRow()
        }
    }
}

/// The `v3` side-table rows (constraint verdicts, score values) of an id range, ordered by (result id, ordinal), as
/// parallel arrays with names coded into ``texts``.
struct SideRows: Sendable {
    var texts: [String] = []
    var constraintIDs: [Int64] = []
    var constraintNameCodes: [Int32] = []
    var constraintPassed: [Bool] = []
    var scoreIDs: [Int64] = []
    var scorerCodes: [Int32] = []
    var scoreValues: [Double] = []

    static func read(_ db: Database, ids: ClosedRange<Int64>) throws -> SideRows {
        var side = SideRows()
        var names = TextInterner()
        try forEach(
            db, sql: "SELECT result_id, name, passed FROM result_constraints WHERE result_id BETWEEN ? AND ? ORDER BY result_id, ordinal",
            ids: ids
        ) { columns in
            side.constraintIDs.append(columns.int64(0))
            side.constraintNameCodes.append(names.code(columns.statement, 1) { side.addText($0) } ?? side.addText(""))
            side.constraintPassed.append(columns.bool(2))
        }
        try forEach(
            db, sql: "SELECT result_id, scorer, value FROM result_scores WHERE result_id BETWEEN ? AND ? ORDER BY result_id, ordinal",
            ids: ids
        ) { columns in
            side.scoreIDs.append(columns.int64(0))
            side.scorerCodes.append(names.code(columns.statement, 1) { side.addText($0) } ?? side.addText(""))
            side.scoreValues.append(columns.double(2))
        }
        return side
    }

    private mutating func addText(_ text: String) -> Int32 {
        texts.append(text)
        return Int32(texts.count - 1)
    }

    private static func forEach(
        _ db: Database, sql: String, ids: ClosedRange<Int64>, _ body: (StatementColumns) -> Void
    ) throws {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: [ids.lowerBound, ids.upperBound])
        let columns = StatementColumns(statement: statement.sqliteStatement)
        while try rows.next() != nil { body(columns) }
    }
}

/// Appends the current row of the page's statement (columns in ``MeasuresPage/columns`` order) to a
/// ``MeasureColumns``, one interner per repeating text column.
struct MeasuresRowReader {
    let columns: StatementColumns
    private var texts = RowTextInterners()

    init(columns: StatementColumns) {
        self.columns = columns
    }

    mutating func append(to page: inout MeasureColumns) throws {
        let statement = columns.statement
        func code(_ interner: inout TextInterner, _ column: Int32) -> Int32? {
            interner.code(statement, column) { page.addText($0) }
        }
        let tierCode = code(&texts.tierNames, 7) ?? -1
        let head = MeasureRowHead(
            caseCode: code(&texts.caseIDs, 1) ?? page.addText(""), repeatIndex: columns.int(3),
            armCode: code(&texts.armIDs, 2) ?? page.addText(""), featureCode: code(&texts.features, 4) ?? page.addText(""),
            promptVariantCode: code(&texts.promptVariants, 5) ?? page.addText(""),
            modelCode: code(&texts.modelIDs, 6) ?? page.addText(""), tier: try texts.tiers.tier(code: tierCode, page: page),
            usage: usage(),
            timings: ResultTimings(
                ttftMs: columns.optionalDouble(13), totalMs: columns.double(14),
                decodeTokensPerSecond: columns.optionalDouble(15), retryBackoffMs: columns.double(16),
                coldStart: columns.bool(17), serverPromptMs: columns.optionalDouble(18),
                serverGenerationMs: columns.optionalDouble(19)),
            costUSD: columns.optionalDouble(20), errorKindCode: code(&texts.errorKinds, 21) ?? -1,
            retries: columns.int(23), cacheHit: columns.bool(24), hasOutput: columns.bool(25))
        // Messages are read only for errors (about one result in a hundred), so they are not coded.
        page.appendRow(head, errorMessage: head.errorKindCode >= 0 ? columns.string(22) ?? "" : nil)
    }

    private func usage() -> TokenUsage? {
        guard let promptTokens = columns.optionalInt(8) else { return nil }
        return TokenUsage(
            promptTokens: promptTokens, completionTokens: columns.int(9), cachedTokens: columns.int(10),
            reasoningTokens: columns.int(11), isEstimated: columns.bool(12))
    }
}

extension SQLiteResultStore {
    /// Steps the statement ``forEachMeasureColumns(run:batchSize:_:)`` runs (`result_measures`), over the whole run
    /// on one reader, without reading a column in Swift: SQLite's share of the measures read, for `hybrid-bench
    /// report`. Returns how many rows it stepped.
    package func stepMeasuresStatements(run: String) async throws -> Int {
        try await database.read("step results of run \(run)") { db in
            guard let ids = try Row.fetchOne(
                db, sql: "SELECT MIN(id), MAX(id) FROM results WHERE run_id = ?", arguments: [run]),
                let first = ids[0] as Int64?, let last = ids[1] as Int64?
            else { return 0 }
            var stepped = 0
            let rows = try Row.fetchCursor(
                try db.makeStatement(sql: MeasuresPage.packedSQL), arguments: [first, last, run])
            while try rows.next() != nil { stepped += 1 }
            return stepped
        }
    }
}
