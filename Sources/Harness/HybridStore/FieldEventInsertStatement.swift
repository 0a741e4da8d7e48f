import Foundation
import GRDB
import GRDBSQLite

/// The `field_events` insert with each column bound straight to SQLite: at 100,000 events a second, building
/// `StatementArguments` (a boxed value per column and row) and GRDB's per-execution bookkeeping cost more than SQLite's
/// own work. Used only inside the store's write transaction; `ON CONFLICT DO NOTHING` makes a re-sent event a
/// no-op that ``insert(_:runID:)`` reports as not stored.
struct FieldEventInsertStatement {
    static let columns = [
        "event_id", "run_id", "occurred_at_ms", "install_id", "rollout_arm", "bucket", "variant", "served_by",
        "served_tier", "outcome", "error_kind", "attempt_count", "fallback", "ttft_ms", "latency_ms", "input_tokens",
        "output_tokens", "tokens_estimated", "cost_usd", "checks_total", "checks_failed", "cache_hit", "labels_json",
        "hedged", "cost_unknown", "input_rule",
    ]

    static let sql =
        "INSERT INTO field_events (\(columns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") ON CONFLICT DO NOTHING"

    private let raw: RawStatement
    /// The labels of the previous row and their JSON: an app's events mostly repeat the same few labels.
    private var lastLabels: [String: String] = [:]
    private var lastLabelsJSON = "{}"

    init(_ db: Database) throws {
        raw = try RawStatement(db, sql: Self.sql)
    }

    /// Stores `event` in run `runID`; false when an event with the same key is already stored.
    mutating func insert(_ event: FieldEventRecord, runID: String) throws -> Bool {
        raw.bind(event.eventID, at: 1)
        raw.bind(runID, at: 2)
        raw.bind(Int64((event.occurredAt.timeIntervalSince1970 * 1000).rounded()), at: 3)
        raw.bind(event.installID, at: 4)
        raw.bind(event.rolloutArm, at: 5)
        raw.bind(event.bucket, at: 6)
        raw.bind(event.variant, at: 7)
        raw.bind(event.servedBy, at: 8)
        raw.bind(event.servedTier, at: 9)
        raw.bind(event.outcome, at: 10)
        raw.bind(event.errorKind, at: 11)
        raw.bind(event.attemptCount, at: 12)
        raw.bind(event.fellBack, at: 13)
        raw.bind(event.ttftMs, at: 14)
        raw.bind(event.latencyMs, at: 15)
        raw.bind(event.inputTokens, at: 16)
        raw.bind(event.outputTokens, at: 17)
        raw.bind(event.tokensEstimated, at: 18)
        raw.bind(event.costUSD, at: 19)
        raw.bind(event.checksTotal, at: 20)
        raw.bind(event.failedChecks.isEmpty ? "" : event.failedChecks.joined(separator: "\n"), at: 21)
        raw.bind(event.cacheHit, at: 22)
        raw.bind(labelsJSON(event.labels), at: 23)
        raw.bind(event.hedged, at: 24)
        raw.bind(event.costUnknown, at: 25)
        raw.bind(event.inputRule, at: 26)
        try raw.run()
        return raw.changes > 0
    }

    private mutating func labelsJSON(_ labels: [String: String]) -> String {
        if labels != lastLabels {
            lastLabels = labels
            lastLabelsJSON = LabelsJSON.encode(labels)
        }
        return lastLabelsJSON
    }
}
