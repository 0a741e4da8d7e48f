public import HybridStore

extension PostgresFieldEventStore {
    /// The state `hybrid rollout` keeps for `feature`; nil before it started.
    public func rolloutRecord(feature: String) async throws(StoreError) -> RolloutRecord? {
        let rows = try await database.rows(
            "read the rollout of \(feature)", "SELECT revision, body FROM rollouts WHERE feature = \(feature)")
        return try rows.first.map { row throws(StoreError) in
            try decode {
                let (revision, body) = try row.decode((Int, String).self)
                return RolloutRecord(feature: feature, revision: revision, body: body)
            }
        }
    }

    /// Every feature's rollout state, by feature name.
    public func rolloutRecords() async throws(StoreError) -> [RolloutRecord] {
        let rows = try await database.rows(
            "read the rollouts", "SELECT feature, revision, body FROM rollouts ORDER BY feature COLLATE \"C\"")
        return try rows.map { row throws(StoreError) in
            try decode {
                let (feature, revision, body) = try row.decode((String, Int, String).self)
                return RolloutRecord(feature: feature, revision: revision, body: body)
            }
        }
    }

    /// Writes the next revision only if the stored one is still `revision`; nil when another writer came first.
    /// One statement each way, so PostgreSQL's row lock decides between two writers.
    public func saveRollout(feature: String, body: String, replacing revision: Int?) async throws(StoreError) -> RolloutRecord? {
        let rows: [PostgresRow]
        if let revision {
            rows = try await database.rows(
                "write the rollout of \(feature)",
                """
                UPDATE rollouts SET revision = revision + 1, body = \(body)
                WHERE feature = \(feature) AND revision = \(revision) RETURNING revision
                """)
        } else {
            rows = try await database.rows(
                "start the rollout of \(feature)",
                """
                INSERT INTO rollouts (feature, revision, body) VALUES (\(feature), 1, \(body))
                ON CONFLICT DO NOTHING RETURNING revision
                """)
        }
        guard let row = rows.first else { return nil }
        let stored = try decode { try row.decode(Int.self) }
        return RolloutRecord(feature: feature, revision: stored, body: body)
    }
}
