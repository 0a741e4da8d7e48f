import Foundation
import GRDB
import GRDBSQLite

/// The `field_events` insert with each column bound straight to SQLite: at 100,000 events a second, building
/// `StatementArguments` (23 boxed values per row) and GRDB's per-execution bookkeeping cost more than SQLite's
/// own work. Used only inside the store's write transaction; `ON CONFLICT DO NOTHING` makes a re-sent event a
/// no-op that ``insert(_:runID:)`` reports as not stored.
struct FieldEventInsertStatement {
    static let columns = [
        "event_id", "run_id", "occurred_at_ms", "install_id", "rollout_arm", "bucket", "variant", "served_by",
        "served_tier", "outcome", "error_kind", "attempt_count", "fallback", "ttft_ms", "latency_ms", "input_tokens",
        "output_tokens", "tokens_estimated", "cost_usd", "checks_total", "checks_failed", "cache_hit", "labels_json",
    ]

    static let sql =
        "INSERT INTO field_events (\(columns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") ON CONFLICT DO NOTHING"

    private let db: Database
    private let statement: OpaquePointer
    /// The labels of the previous row and their JSON: an app's events mostly repeat the same few labels.
    private var lastLabels: [String: String] = [:]
    private var lastLabelsJSON = "{}"

    init(_ db: Database) throws {
        self.db = db
        statement = try db.cachedStatement(sql: Self.sql).sqliteStatement
    }

    /// Stores `event` in run `runID`; false when an event with the same key is already stored.
    mutating func insert(_ event: FieldEventRecord, runID: String) throws -> Bool {
        defer { sqlite3_reset(statement) }
        bind(event.eventID, at: 1)
        bind(runID, at: 2)
        sqlite3_bind_int64(statement, 3, Int64((event.occurredAt.timeIntervalSince1970 * 1000).rounded()))
        bind(event.installID, at: 4)
        bind(event.rolloutArm, at: 5)
        bind(event.bucket, at: 6)
        bind(event.variant, at: 7)
        bind(event.servedBy, at: 8)
        bind(event.servedTier, at: 9)
        bind(event.outcome, at: 10)
        bind(event.errorKind, at: 11)
        bind(event.attemptCount, at: 12)
        bind(event.fellBack ? 1 : 0, at: 13)
        bind(event.ttftMs, at: 14)
        sqlite3_bind_double(statement, 15, event.latencyMs)
        bind(event.inputTokens, at: 16)
        bind(event.outputTokens, at: 17)
        bind(event.tokensEstimated ? 1 : 0, at: 18)
        sqlite3_bind_double(statement, 19, event.costUSD)
        bind(event.checksTotal, at: 20)
        bind(event.failedChecks.isEmpty ? "" : event.failedChecks.joined(separator: "\n"), at: 21)
        bind(event.cacheHit ? 1 : 0, at: 22)
        bind(labelsJSON(event.labels), at: 23)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    private mutating func labelsJSON(_ labels: [String: String]) -> String {
        if labels != lastLabels {
            lastLabels = labels
            lastLabelsJSON = LabelsJSON.encode(labels)
        }
        return lastLabelsJSON
    }

    private func bind(_ text: String?, at index: Int32) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { utf8 in
            // An empty buffer may have no address, which SQLite would store as NULL instead of ''.
            let start = utf8.baseAddress.map { UnsafeRawPointer($0) } ?? Self.emptyText
            _ = sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), Int32(utf8.count), sqliteTransient)
        }
    }

    private func bind(_ number: Int?, at index: Int32) {
        guard let number else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_int64(statement, index, Int64(number))
    }

    private func bind(_ number: Double?, at index: Int32) {
        guard let number else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_double(statement, index, number)
    }

    nonisolated(unsafe) private static let emptyText = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
}
