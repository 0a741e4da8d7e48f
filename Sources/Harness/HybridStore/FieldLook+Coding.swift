import Foundation
import GRDB
import HybridCore

extension FieldLook {
    /// The `body` column of a look under a planned design: the entries and the plan record.
    private struct PlannedBody: Codable {
        var entries: [Entry]
        var plan: Plan
    }

    /// The entries as the `body` column holds them: the array alone under the always-valid design (as every look
    /// before planned designs was kept), `{"entries": […], "plan": {…}}` under a planned one. No migration: both
    /// stores keep the column as text, and a reader tells the two apart by the JSON's shape.
    package func encodedEntries() throws(StoreError) -> String {
        guard let plan else { return try StoreJSON.encode(entries, field: "field look entries") }
        return try StoreJSON.encode(PlannedBody(entries: entries, plan: plan), field: "field look entries")
    }

    /// A look read back from its columns.
    package init(runID: String, events: Int, recordedAt: String, body: String) throws {
        let json = try JSONValue(parsing: body)
        let date = ISO8601DateFormatter().date(from: recordedAt) ?? Date(timeIntervalSince1970: 0)
        if case .array = json {
            self.init(runID: runID, events: events, recordedAt: date, entries: try JSONValueDecoder().decode([Entry].self, from: json))
        } else {
            let planned = try JSONValueDecoder().decode(PlannedBody.self, from: json)
            self.init(runID: runID, events: events, recordedAt: date, entries: planned.entries, plan: planned.plan)
        }
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
