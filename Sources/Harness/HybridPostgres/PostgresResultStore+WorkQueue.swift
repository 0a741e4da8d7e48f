import Foundation
import HybridCore
public import HybridStore

extension PostgresResultStore: WorkQueue {
    public func createRun(_ run: RunRecord, queueing keys: [ResultKey]) async throws(StoreError) -> Bool {
        let location = database.location
        do {
            try await database.transaction("create run \(run.id) and queue \(keys.count) keys") { connection in
                try await Self.insert(run, on: connection, location: location)
                // In chunks: a statement carries at most 65,535 bound values.
                for start in stride(from: 0, to: keys.count, by: 5000) {
                    let chunk = keys[start..<min(start + 5000, keys.count)]
                    try await connection.query(Self.queue(chunk, firstSeq: start), logger: PostgresDatabase.logger)
                }
            }
            return true
        } catch StoreError.runAlreadyExists {
            return false
        }
    }

    /// One INSERT of `keys` as unleased queue rows, numbered from `firstSeq` in plan order.
    private static func queue(_ keys: ArraySlice<ResultKey>, firstSeq: Int) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: keys.count * 5)
        var values: [String] = []
        values.reserveCapacity(keys.count)
        for (offset, key) in keys.enumerated() {
            let base = offset * 5
            values.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4), $\(base + 5))")
            bindings.append(key.runID)
            bindings.append(key.caseID)
            bindings.append(key.armID)
            bindings.append(key.repeatIndex)
            bindings.append(firstSeq + offset)
        }
        return PostgresQuery(
            unsafeSQL: "INSERT INTO work_claims (run_id, case_id, arm_id, repeat_index, seq) VALUES "
                + values.joined(separator: ", "),
            binds: bindings)
    }

    public func claim(run: String, worker: String, limit: Int, lease: Duration) async throws(StoreError) -> [ResultKey] {
        let seconds = Self.seconds(lease)
        // SKIP LOCKED: concurrent claimers pass over each other's rows instead of waiting on them, and each row is
        // updated by exactly one of them.
        let rows = try await database.rows(
            "claim keys of run \(run)",
            """
            UPDATE work_claims AS queued SET worker_id = \(worker), lease_expires_at = now() + make_interval(secs => \(seconds))
            FROM (
                SELECT run_id, case_id, arm_id, repeat_index FROM work_claims
                WHERE run_id = \(run) AND (lease_expires_at IS NULL OR lease_expires_at < now())
                ORDER BY seq LIMIT \(max(1, limit))
                FOR UPDATE SKIP LOCKED
            ) AS free
            WHERE queued.run_id = free.run_id AND queued.case_id = free.case_id AND queued.arm_id = free.arm_id
                AND queued.repeat_index = free.repeat_index
            RETURNING queued.case_id, queued.arm_id, queued.repeat_index, queued.seq
            """)
        let claimed = try decode("work_claims") {
            try rows.map { row in try row.decode((String, String, Int, Int).self) }
        }
        return claimed.sorted { $0.3 < $1.3 }.map { ResultKey(runID: run, caseID: $0.0, armID: $0.1, repeatIndex: $0.2) }
    }

    public func renewLeases(run: String, worker: String, lease: Duration) async throws(StoreError) -> Int {
        let seconds = Self.seconds(lease)
        // Expired leases of this worker are renewed too: until another worker claims a key, it is still this one's.
        let rows = try await database.rows(
            "renew the leases of worker \(worker) in run \(run)",
            """
            UPDATE work_claims SET lease_expires_at = now() + make_interval(secs => \(seconds))
            WHERE run_id = \(run) AND worker_id = \(worker)
            RETURNING seq
            """)
        return rows.count
    }

    /// A lease as PostgreSQL's `make_interval(secs => …)` takes it.
    private static func seconds(_ lease: Duration) -> Double {
        Double(lease.components.seconds) + Double(lease.components.attoseconds) / 1e18
    }

    public func queuedCount(run: String) async throws(StoreError) -> Int {
        let rows = try await database.rows("count queued keys of run \(run)", "SELECT COUNT(*) FROM work_claims WHERE run_id = \(run)")
        return try decode("work_claims") { try rows.first?.decode(Int.self) ?? 0 }
    }
}
