import Foundation
import GRDB
import HybridCore

/// Field runs in SQLite: router events uploaded by apps (`hybrid collect`, `hybrid ingest`), one run per
/// (feature, config version) with kind `field`, each event stored once by its id.
///
/// Inserts are one transaction per batch through a cached statement bound column by column
/// (``FieldEventInsertStatement``), into a table keyed by (run, install, time, id) so an install's batch appends to a few pages instead
/// of dirtying one per event (`hybrid-bench ingest`).
public final class SQLiteFieldEventStore: FieldEventStore {
    /// The protocol's outcome, under the name callers of this store used before there was a protocol.
    public typealias InsertOutcome = FieldEventInsertOutcome

    let database: HybridDatabase
    private let commits: FieldEventGroupCommit

    /// A store over an open database.
    public init(database: HybridDatabase) {
        self.database = database
        commits = FieldEventGroupCommit(database: database)
    }

    /// Opens (creating when missing) the database file at `path`.
    public convenience init(path: String) throws(StoreError) {
        self.init(database: try HybridDatabase(path: path))
    }

    /// The id of the field run of `feature` at `configVersion`: `field-<feature>-v<version>`.
    public static func runID(feature: String, configVersion: Int) -> String {
        FieldRunID.make(feature: feature, configVersion: configVersion)
    }

    /// Stores `events`, creating their field runs when new; events already stored (same id) are counted as
    /// duplicates and left unchanged. Returns once the transaction holding them is committed; batches stored
    /// concurrently share transactions (``FieldEventGroupCommit``).
    @discardableResult
    public func insert(_ events: [FieldEventRecord]) async throws(StoreError) -> InsertOutcome {
        try await commits.insert(events)
    }

    /// One batch inside the current transaction.
    static func insertBatch(_ events: [FieldEventRecord], db: Database) throws -> InsertOutcome {
        let runs = try createRuns(for: events, db: db)
        var statement = try FieldEventInsertStatement(db)
        var accepted = 0
        var run = (feature: "", version: -1, id: "")
        for event in events {
            if event.configVersion != run.version || event.feature != run.feature {
                run = (event.feature, event.configVersion, event.runID)
            }
            if try statement.insert(event, runID: run.id) { accepted += 1 }
        }
        return InsertOutcome(accepted: accepted, duplicates: events.count - accepted, runIDs: runs)
    }

    /// True when `runID` is a field run.
    public func isFieldRun(_ runID: String) async throws(StoreError) -> Bool {
        try await database.read("read kind of run \(runID)") { db in
            try String.fetchOne(db, sql: "SELECT kind FROM runs WHERE id = ?", arguments: [runID]) == "field"
        }
    }

    /// The field runs, newest first.
    public func fieldRunIDs() async throws(StoreError) -> [String] {
        try await database.read("list field runs") { db in
            try String.fetchAll(db, sql: "SELECT id FROM runs WHERE kind = 'field' ORDER BY started_at DESC, id")
        }
    }

    /// Number of events stored for `runID`.
    public func eventCount(run runID: String) async throws(StoreError) -> Int {
        try await database.read("count field events of \(runID)") { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM field_events WHERE run_id = ?", arguments: [runID]) ?? 0
        }
    }

    /// Every event of `runID`, in id order.
    public func events(run runID: String) async throws(StoreError) -> [FieldEventRecord] {
        try await database.read("read field events of \(runID)") { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.columns.joined(separator: ", ")), runs.config_hash FROM field_events "
                    + "JOIN runs ON runs.id = field_events.run_id WHERE run_id = ? ORDER BY event_id",
                arguments: [runID])
            var events: [FieldEventRecord] = []
            while let row = try rows.next() {
                events.append(try Self.record(from: row))
            }
            return events
        }
    }

    // MARK: - Rows

    private static func createRuns(for events: [FieldEventRecord], db: Database) throws -> [String] {
        let runs = FieldRunID.firstEvents(of: events)
        for (id, event) in runs {
            let features = try StoreJSON.encode([event.feature], field: "run features")
            try db.execute(
                sql: """
                    INSERT INTO runs (id, features_json, dataset_path, dataset_hash, config_version, config_hash,
                        started_at, status, arguments_json, planned_count, seed, kind)
                    VALUES (?, ?, 'field', '', ?, ?, ?, 'running', '{"kind":"field"}', 0, 0, 'field')
                    ON CONFLICT (id) DO NOTHING
                    """,
                arguments: [id, features, event.configVersion, event.configHash, Date()])
        }
        return runs.map(\.id)
    }

    private static let columns = FieldEventInsertStatement.columns

    private static func record(from row: Row) throws -> FieldEventRecord {
        let runID: String = row[1]
        let failed: String = row[20]
        return FieldEventRecord(
            eventID: row[0], occurredAt: Date(timeIntervalSince1970: Double(row[2] as Int64) / 1000),
            installID: row[3], feature: try FieldRunID.feature(of: runID), configVersion: try FieldRunID.version(of: runID),
            configHash: row[26], rolloutArm: row[4], bucket: row[5], variant: row[6], servedBy: row[7],
            servedTier: row[8], outcome: row[9], errorKind: row[10], attemptCount: row[11], fellBack: row[12],
            ttftMs: row[13], latencyMs: row[14], inputTokens: row[15], outputTokens: row[16], tokensEstimated: row[17],
            costUSD: row[18], checksTotal: row[19],
            failedChecks: failed.isEmpty ? [] : failed.split(separator: "\n").map(String.init), cacheHit: row[21],
            labels: try LabelsJSON.decode(row[22]), hedged: row[23], costUnknown: row[24],
            inputRule: row[25])
    }
}

/// Labels as a small sorted JSON object, written with the core's `JSONTextWriter`: JSONEncoder per event would
/// dominate ingest time.
package enum LabelsJSON {
    /// `labels` as `{"key":"value",…}` with sorted keys, `{}` when empty.
    package static func encode(_ labels: [String: String]) -> String {
        guard !labels.isEmpty else { return "{}" }
        var out = JSONTextWriter(capacity: 64)
        out.raw("{")
        for (index, key) in labels.keys.sorted().enumerated() {
            if index > 0 { out.raw(",") }
            out.string(key)
            out.raw(":")
            out.string(labels[key] ?? "")
        }
        out.raw("}")
        return out.text
    }

    /// The labels back from their JSON; a row holding anything else is unreadable.
    package static func decode(_ text: String) throws -> [String: String] {
        guard text != "{}" else { return [:] }
        guard let object = (try? JSONValue(parsing: text))?.objectValue,
            case let labels = object.compactMapValues(\.stringValue), labels.count == object.count
        else {
            throw RecordDecodingError(table: "field_events", reason: "labels_json is not an object of strings")
        }
        return labels
    }
}
