import GRDB

/// The `result_constraints` and `result_scores` rows of a result (migration `v3`): its constraint verdicts and
/// score values as typed rows, written beside the JSON columns in the same transaction.
extension ResultRecord {
    static let insertConstraintSQL = "INSERT INTO result_constraints (result_id, ordinal, name, passed) VALUES (?, ?, ?, ?)"
    static let insertScoreSQL = "INSERT INTO result_scores (result_id, ordinal, scorer, value) VALUES (?, ?, ?, ?)"

    /// The statements that store a result, its side rows and its cache entry, looked up once for a whole batch and
    /// bound through SQLite's C API (see ``RawStatement``).
    struct InsertStatements {
        let result: RawStatement
        let constraint: RawStatement
        let score: RawStatement
        /// Prepared only for a batch that caches: the side-row backfill of migration `v3` runs on a schema older
        /// than the cache's current columns.
        let cache: RawStatement?
        /// The `v7` packed measures row; nil for the `v3` backfill, which runs before that table exists.
        let measures: RawStatement?

        init(_ db: Database, caching: Bool = false, packing: Bool = true) throws {
            result = try RawStatement(db, sql: ResultRecord.insertSQL)
            constraint = try RawStatement(db, sql: insertConstraintSQL)
            score = try RawStatement(db, sql: insertScoreSQL)
            cache = caching ? try RawStatement(db, sql: CachedResponseRecord.replaceSQL) : nil
            measures = packing ? try RawStatement(db, sql: PackedMeasures.insertSQL) : nil
        }

        /// Inserts `record`'s row; throws GRDB's `DatabaseError` on a conflict.
        func insert(_ record: ResultRecord) throws {
            var sink = RawStatementSink(result)
            try record.addInsertValues(to: &sink)
            try result.run()
        }

        /// Inserts or replaces `response`'s cache entry.
        func replace(_ response: CachedResponseRecord) throws {
            guard let cache else { preconditionFailure("InsertStatements made without caching: true") }
            var sink = RawStatementSink(cache)
            try response.addReplaceValues(to: &sink)
            try cache.run()
        }
    }

    /// Writes the side rows of the result stored at `rowID`.
    static func insertSideRows(
        rowID: Int64, constraints: [ConstraintOutcome], scores: [QualityScore], db: Database
    ) throws {
        try insertSideRows(
            rowID: rowID, constraints: constraints, scores: scores, statements: InsertStatements(db, packing: false))
    }

    /// `insertSideRows` with the statements already looked up.
    static func insertSideRows(
        rowID: Int64, constraints: [ConstraintOutcome], scores: [QualityScore], statements: InsertStatements
    ) throws {
        for (ordinal, outcome) in constraints.enumerated() {
            statements.constraint.bind(rowID, at: 1)
            statements.constraint.bind(ordinal, at: 2)
            statements.constraint.bind(outcome.name, at: 3)
            statements.constraint.bind(outcome.passed, at: 4)
            try statements.constraint.run()
        }
        for (ordinal, score) in scores.enumerated() {
            statements.score.bind(rowID, at: 1)
            statements.score.bind(ordinal, at: 2)
            statements.score.bind(score.scorer, at: 3)
            statements.score.bind(score.value, at: 4)
            try statements.score.run()
        }
    }

    /// Fills the side tables from the JSON columns of every stored result (migration `v3` over an older file).
    static func backfillSideTables(_ db: Database) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, constraints_json, scores_json FROM results WHERE constraints_json != '[]' OR scores_json != '[]'")
        while let row = try rows.next() {
            do {
                let constraints = ConstraintOutcome.onePerName(
                    try StoreJSON.constraints(from: row.decode(atIndex: 1), column: "constraints_json"))
                let scores = try StoreJSON.scores(from: row.decode(atIndex: 2), column: "scores_json")
                try insertSideRows(rowID: try row.decode(atIndex: 0), constraints: constraints, scores: scores, db: db)
            } catch let error as RecordDecodingError {
                let id: Int64 = (try? row.decode(atIndex: 0)) ?? -1
                throw RecordDecodingError(table: databaseTableName, reason: "row id \(id): \(error.reason)")
            }
        }
    }
}
