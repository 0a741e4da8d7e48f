import GRDB

extension SQLiteFieldEventStore {
    /// The state `hybrid rollout` keeps for `feature`; nil before it started.
    public func rolloutRecord(feature: String) async throws(StoreError) -> RolloutRecord? {
        try await database.read("read the rollout of \(feature)") { db in
            try Row.fetchOne(db, sql: "SELECT revision, body FROM rollouts WHERE feature = ?", arguments: [feature]).map { row in
                RolloutRecord(feature: feature, revision: row[0], body: row[1])
            }
        }
    }

    /// Every feature's rollout state, by feature name.
    public func rolloutRecords() async throws(StoreError) -> [RolloutRecord] {
        try await database.read("read the rollouts") { db in
            try Row.fetchAll(db, sql: "SELECT feature, revision, body FROM rollouts ORDER BY feature").map { row in
                RolloutRecord(feature: row[0], revision: row[1], body: row[2])
            }
        }
    }

    /// Writes the next revision only if the stored one is still `revision`; nil when another writer came first.
    public func saveRollout(feature: String, body: String, replacing revision: Int?) async throws(StoreError) -> RolloutRecord? {
        try await database.write("write the rollout of \(feature)") { db in
            if let revision {
                try db.execute(
                    sql: "UPDATE rollouts SET revision = revision + 1, body = ? WHERE feature = ? AND revision = ?",
                    arguments: [body, feature, revision])
            } else {
                try db.execute(
                    sql: "INSERT INTO rollouts (feature, revision, body) VALUES (?, 1, ?) ON CONFLICT DO NOTHING",
                    arguments: [feature, body])
            }
            return db.changesCount == 1 ? RolloutRecord(feature: feature, revision: (revision ?? 0) + 1, body: body) : nil
        }
    }
}
