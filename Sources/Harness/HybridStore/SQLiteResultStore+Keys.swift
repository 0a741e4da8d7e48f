import GRDB

extension SQLiteResultStore {
    /// One lookup per key on the `(run_id, case_id, arm_id, repeat_index)` unique index, all in one read
    /// transaction: a report's few listed cases cost microseconds, not another pass over the run.
    public func results(keys: [ResultKey]) async throws(StoreError) -> [ResultRecord] {
        guard !keys.isEmpty else { return [] }
        return try await database.read("read \(keys.count) results by key") { db in
            let statement = try db.cachedStatement(
                sql: "SELECT \(ResultRecord.positionalColumns) FROM results "
                    + "WHERE run_id = ? AND case_id = ? AND arm_id = ? AND repeat_index = ?")
            return try keys.compactMap { key in
                try Row.fetchOne(statement, arguments: [key.runID, key.caseID, key.armID, key.repeatIndex])
                    .map { try Stored<ResultRecord>(positionalRow: $0).value }
            }
        }
    }
}
