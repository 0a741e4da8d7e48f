import Foundation
public import HybridStore

extension PostgresFieldEventStore {
    /// Keeps `look`; a look at an event count already kept changes nothing.
    public func recordLook(_ look: FieldLook) async throws(StoreError) {
        let body = try look.encodedEntries()
        _ = try await database.rows(
            "record a look at \(look.runID)",
            """
            INSERT INTO field_looks (run_id, events, recorded_at, body)
            VALUES (\(look.runID), \(look.events), \(look.recordedAtText), \(body)) ON CONFLICT DO NOTHING
            """)
    }

    /// The looks kept for `runID`, oldest (fewest events) first.
    public func looks(run runID: String) async throws(StoreError) -> [FieldLook] {
        let rows = try await database.rows(
            "read the looks at \(runID)",
            "SELECT events, recorded_at, body FROM field_looks WHERE run_id = \(runID) ORDER BY events")
        return try rows.map { row throws(StoreError) in
            try decode {
                let (events, recordedAt, body) = try row.decode((Int, String, String).self)
                return try FieldLook(runID: runID, events: events, recordedAt: recordedAt, body: body)
            }
        }
    }
}
