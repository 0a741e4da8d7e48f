import Foundation
import GRDB
import HybridCore

extension SQLiteResultStore {
    public func savePairwiseVerdict(_ verdict: PairwiseVerdictRecord) async throws(StoreError) {
        let body = try StoreJSON.encode(verdict, field: "pairwise verdict")
        let path = database.path
        try await database.write("store a pairwise verdict of run \(verdict.runID)") { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO pairwise_verdicts (run_id, arm_id, baseline_arm_id, case_id, body)
                    SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM runs WHERE id = ?)
                    """,
                arguments: [verdict.runID, verdict.armID, verdict.baselineArmID, verdict.caseID, body, verdict.runID])
            if db.changesCount == 0 { throw StoreError.runNotFound(path: path, runID: verdict.runID) }
        }
    }

    public func pairwiseVerdicts(run: String) async throws(StoreError) -> [PairwiseVerdictRecord] {
        let path = database.path
        return try await database.read("read the pairwise verdicts of run \(run)") { db in
            try String.fetchAll(
                db, sql: "SELECT body FROM pairwise_verdicts WHERE run_id = ? ORDER BY arm_id, baseline_arm_id, case_id",
                arguments: [run]
            ).map { body in try PairwiseVerdictRecord.decoded(body, path: path) }
        }
    }
}

extension PairwiseVerdictRecord {
    /// A stored body read back; a row that does not decode is named with its database.
    package static func decoded(_ body: String, path: String) throws(StoreError) -> PairwiseVerdictRecord {
        do {
            return try JSONValueDecoder().decode(PairwiseVerdictRecord.self, from: JSONValue(parsing: body))
        } catch {
            throw StoreError.unreadableRow(path: path, table: "pairwise_verdicts", reason: "\(error)")
        }
    }
}
