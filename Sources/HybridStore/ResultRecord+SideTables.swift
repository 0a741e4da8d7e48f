import GRDB

/// The `result_constraints` and `result_scores` rows of a result (migration `v3`): its constraint verdicts and
/// score values as typed rows, written beside the JSON columns in the same transaction.
extension ResultRecord {
    static let insertConstraintSQL = "INSERT INTO result_constraints (result_id, ordinal, name, passed) VALUES (?, ?, ?, ?)"
    static let insertScoreSQL = "INSERT INTO result_scores (result_id, ordinal, scorer, value) VALUES (?, ?, ?, ?)"

    /// The prepared statements that store a result and its side rows, looked up once for a whole batch.
    struct InsertStatements {
        let result: Statement
        let constraint: Statement
        let score: Statement

        init(_ db: Database) throws {
            result = try db.cachedStatement(sql: ResultRecord.insertSQL)
            constraint = try db.cachedStatement(sql: insertConstraintSQL)
            score = try db.cachedStatement(sql: insertScoreSQL)
        }
    }

    /// Writes the side rows of the result stored at `rowID`.
    static func insertSideRows(
        rowID: Int64, constraints: [ConstraintOutcome], scores: [QualityScore], db: Database
    ) throws {
        try insertSideRows(rowID: rowID, constraints: constraints, scores: scores, statements: InsertStatements(db))
    }

    /// `insertSideRows` with the statements already looked up.
    static func insertSideRows(
        rowID: Int64, constraints: [ConstraintOutcome], scores: [QualityScore], statements: InsertStatements
    ) throws {
        for (ordinal, outcome) in constraints.enumerated() {
            try statements.constraint.execute(arguments: [rowID, ordinal, outcome.name, outcome.passed])
        }
        for (ordinal, score) in scores.enumerated() {
            try statements.score.execute(arguments: [rowID, ordinal, score.scorer, score.value])
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
