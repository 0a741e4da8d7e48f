public import HybridStore

extension PostgresResultStore {
    public func savePairwiseVerdict(_ verdict: PairwiseVerdictRecord) async throws(StoreError) {
        let body = try StoreJSON.encode(verdict, field: "pairwise verdict")
        let rows = try await database.rows(
            "store a pairwise verdict of run \(verdict.runID)",
            """
            INSERT INTO pairwise_verdicts (run_id, arm_id, baseline_arm_id, case_id, body)
            SELECT \(verdict.runID), \(verdict.armID), \(verdict.baselineArmID), \(verdict.caseID), \(body)
            WHERE EXISTS (SELECT 1 FROM runs WHERE id = \(verdict.runID))
            ON CONFLICT (run_id, arm_id, baseline_arm_id, case_id) DO UPDATE SET body = EXCLUDED.body
            RETURNING case_id
            """)
        if rows.isEmpty { throw StoreError.runNotFound(path: database.location, runID: verdict.runID) }
    }

    public func pairwiseVerdicts(run: String) async throws(StoreError) -> [PairwiseVerdictRecord] {
        let rows = try await database.rows(
            "read the pairwise verdicts of run \(run)",
            """
            SELECT body FROM pairwise_verdicts WHERE run_id = \(run)
            ORDER BY arm_id COLLATE "C", baseline_arm_id COLLATE "C", case_id COLLATE "C"
            """)
        return try rows.map { row throws(StoreError) in
            let body = try decode("pairwise_verdicts") { try row.decode(String.self) }
            return try PairwiseVerdictRecord.decoded(body, path: database.location)
        }
    }
}
