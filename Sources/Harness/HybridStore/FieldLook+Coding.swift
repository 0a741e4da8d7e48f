import Foundation
import GRDB
import HybridCore

extension FieldLook {
    /// The entries as the `body` column holds them.
    package func encodedEntries() throws(StoreError) -> String {
        try StoreJSON.encode(entries, field: "field look entries")
    }

    /// A look read back from its columns.
    package init(runID: String, events: Int, recordedAt: String, body: String) throws {
        self.init(
            runID: runID, events: events, recordedAt: ISO8601DateFormatter().date(from: recordedAt) ?? Date(timeIntervalSince1970: 0),
            entries: try JSONValueDecoder().decode([Entry].self, from: try JSONValue(parsing: body)))
    }

    /// `recordedAt` as the `recorded_at` column holds it.
    package var recordedAtText: String { ISO8601DateFormatter().string(from: recordedAt) }
}

extension SQLiteFieldEventStore {
    /// Keeps `look`; a look at an event count already kept changes nothing.
    public func recordLook(_ look: FieldLook) async throws(StoreError) {
        let body = try look.encodedEntries()
        try await database.write("record a look at \(look.runID)") { db in
            try db.execute(
                sql: "INSERT INTO field_looks (run_id, events, recorded_at, body) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [look.runID, look.events, look.recordedAtText, body])
        }
    }

    /// The looks kept for `runID`, oldest (fewest events) first.
    public func looks(run runID: String) async throws(StoreError) -> [FieldLook] {
        try await database.read("read the looks at \(runID)") { db in
            try Row.fetchAll(
                db, sql: "SELECT events, recorded_at, body FROM field_looks WHERE run_id = ? ORDER BY events", arguments: [runID]
            ).map { row in
                try FieldLook(runID: runID, events: row[0], recordedAt: row[1], body: row[2])
            }
        }
    }
}
