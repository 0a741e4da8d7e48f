import Foundation
import HybridCore
public import HybridStore

/// Field runs on the shared PostgreSQL database: several collectors (`hybrid collect` on many machines, `hybrid
/// ingest` jobs) write the same tables at once, and reports read them from anywhere.
///
/// A batch is one transaction: its runs rows, then its events as `INSERT … SELECT * FROM unnest(…) ON CONFLICT
/// DO NOTHING` statements (each column one array parameter), keyed by the event id. Rows go in sorted by id, so
/// two transactions inserting overlapping batches wait for each other on the shared ids instead of deadlocking,
/// and the one that waits finds the other's rows and counts them as duplicates: every event is stored exactly
/// once. The commit returns after PostgreSQL's WAL flush, so an acknowledged batch survives the collector being
/// killed.
public final class PostgresFieldEventStore: FieldEventStore {
    /// The database and its connection pool.
    public let database: PostgresDatabase

    /// A store over an open database (which the other stores may share).
    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// Rows per `INSERT`, so one statement's parameters stay a few megabytes.
    static let rowsPerStatement = 5_000

    @discardableResult
    public func insert(_ events: [FieldEventRecord]) async throws(StoreError) -> FieldEventInsertOutcome {
        let runs = FieldRunID.firstEvents(of: events)
        guard !events.isEmpty else { return FieldEventInsertOutcome(accepted: 0, duplicates: 0, runIDs: []) }
        let unique = Self.firstOfEachID(events)
        let runQueries = try runs.map { run throws(StoreError) in try Self.insertRun(id: run.id, event: run.event) }
        let eventQueries = stride(from: 0, to: unique.count, by: Self.rowsPerStatement).map { start in
            Self.insertEvents(unique[start..<min(start + Self.rowsPerStatement, unique.count)])
        }
        let accepted = try await database.transaction("store \(events.count) field events") { connection in
            for query in runQueries { try await connection.query(query, logger: PostgresDatabase.logger) }
            var accepted = 0
            for query in eventQueries {
                accepted += try await connection.query(query, logger: PostgresDatabase.logger).count
            }
            return accepted
        }
        return FieldEventInsertOutcome(accepted: accepted, duplicates: events.count - accepted, runIDs: runs.map(\.id))
    }

    public func isFieldRun(_ runID: String) async throws(StoreError) -> Bool {
        let rows = try await database.rows("read kind of run \(runID)", "SELECT kind FROM runs WHERE id = \(runID)")
        return try rows.first.map { row throws(StoreError) in try decode { try row.decode(String.self) } } == "field"
    }

    public func fieldRunIDs() async throws(StoreError) -> [String] {
        let rows = try await database.rows(
            "list field runs", "SELECT id FROM runs WHERE kind = 'field' ORDER BY started_at DESC, id COLLATE \"C\"")
        return try rows.map { row throws(StoreError) in try decode { try row.decode(String.self) } }
    }

    public func eventCount(run runID: String) async throws(StoreError) -> Int {
        let rows = try await database.rows(
            "count field events of \(runID)", "SELECT COUNT(*) FROM field_events WHERE run_id = \(runID)")
        return try decode { try rows.first?.decode(Int.self) ?? 0 }
    }

    /// Pages by event id (keyset over the (run, id) index, byte order as SQLite compares), so no page is a long read.
    public func events(run runID: String) async throws(StoreError) -> [FieldEventRecord] {
        let feature = try decode { try FieldRunID.feature(of: runID) }
        let version = try decode { try FieldRunID.version(of: runID) }
        var events: [FieldEventRecord] = []
        var after = ""
        while true {
            let rows = try await database.rows(
                "read field events of \(runID)",
                """
                SELECT \(unescaped: Self.columns), runs.config_hash FROM field_events JOIN runs ON runs.id = field_events.run_id
                WHERE run_id = \(runID) AND event_id COLLATE "C" > \(after)
                ORDER BY event_id COLLATE "C" LIMIT \(Self.rowsPerPage)
                """)
            for row in rows {
                events.append(try decode { try Self.record(row, feature: feature, version: version) })
            }
            guard rows.count == Self.rowsPerPage, let last = events.last else { return events }
            after = last.eventID
        }
    }

    // MARK: - Rows

    static let rowsPerPage = 10_000

    static let columns =
        "event_id, run_id, install_id, occurred_at_ms, rollout_arm, bucket, variant, served_by, served_tier, outcome, "
        + "error_kind, attempt_count, fallback, ttft_ms, latency_ms, input_tokens, output_tokens, tokens_estimated, "
        + "cost_usd, checks_total, checks_failed, cache_hit, labels_json, hedged, cost_unknown, input_rule"

    /// The first event of each id, sorted by id (the lock order concurrent batches share).
    static func firstOfEachID(_ events: [FieldEventRecord]) -> [FieldEventRecord] {
        var seen = Set<String>()
        return events.filter { seen.insert($0.eventID).inserted }.sorted { $0.eventID.utf8.lexicographicallyPrecedes($1.eventID.utf8) }
    }

    static func insertRun(id: String, event: FieldEventRecord) throws(StoreError) -> PostgresQuery {
        let features = try StoreJSON.encode([event.feature], field: "run features")
        return """
            INSERT INTO runs (id, features_json, dataset_path, dataset_hash, config_version, config_hash, started_at,
                status, arguments_json, planned_count, seed, kind)
            VALUES (\(id), \(features), 'field', '', \(event.configVersion), \(event.configHash), \(Date().storedPrecision),
                'running', '{"kind":"field"}', 0, 0, 'field')
            ON CONFLICT (id) DO NOTHING
            """
    }

    /// One statement per chunk: each column bound as one array and unnested into rows, so the server parses and
    /// plans a statement of one parameter per column whatever the batch size (a 500-row `VALUES` list had 11,500 and stored
    /// about four times fewer events a second). Answers a row per event it stored.
    static func insertEvents(_ events: ArraySlice<FieldEventRecord>) -> PostgresQuery {
        var query = PostgresQuery(unsafeSQL: "INSERT INTO field_events (\(columns)) SELECT * FROM unnest(")
        func column<Value: PostgresArrayElement>(_ value: (FieldEventRecord) -> Value?) {
            query.sql += query.binds.count == 0 ? "$1" : ", $\(query.binds.count + 1)"
            query.binds.append(PostgresArray(elements: events.map(value)))
        }
        column { $0.eventID }
        column { $0.runID }
        column { $0.installID }
        column { Int64(($0.occurredAt.timeIntervalSince1970 * 1000).rounded()) }
        column { $0.rolloutArm }
        column { $0.bucket }
        column { $0.variant }
        column { $0.servedBy }
        column { $0.servedTier }
        column { $0.outcome }
        column { $0.errorKind }
        column { $0.attemptCount }
        column { $0.fellBack }
        column { $0.ttftMs }
        column { $0.latencyMs }
        column { $0.inputTokens }
        column { $0.outputTokens }
        column { $0.tokensEstimated }
        column { $0.costUSD }
        column { $0.checksTotal }
        column { $0.failedChecks.joined(separator: "\n") }
        column { $0.cacheHit }
        column { LabelsJSON.encode($0.labels) }
        column { $0.hedged }
        column { $0.costUnknown }
        column { $0.inputRule }
        query.sql += ") ON CONFLICT DO NOTHING RETURNING 1"
        return query
    }

    /// A row of `columns` plus the run's config hash; feature and version come from the run id, as in SQLite.
    static func record(_ row: PostgresRow, feature: String, version: Int) throws -> FieldEventRecord {
        var index = 0
        func next<T: PostgresDecodable>(_: T.Type = T.self) throws -> T {
            defer { index += 1 }
            return try T.decode(row.values[index], column: row.columns[index])
        }
        let eventID: String = try next()
        _ = try next(String.self)  // run_id
        let installID: String = try next()
        let occurred: Int64 = try next()
        let arm: String? = try next(), bucket: Int? = try next(), variant: String = try next()
        let servedBy: String? = try next(), servedTier: String? = try next(), outcome: String = try next()
        let errorKind: String? = try next(), attempts: Int = try next(), fellBack: Bool = try next()
        let ttft: Double? = try next(), latency: Double = try next(), input: Int = try next(), output: Int = try next()
        let estimated: Bool = try next(), cost: Double = try next(), checks: Int = try next()
        let failed: String = try next(), cacheHit: Bool = try next(), labels: String = try next()
        let hedged: Bool = try next(), costUnknown: Bool = try next(), inputRule: String? = try next()
        let configHash: String? = try next()
        return FieldEventRecord(
            eventID: eventID, occurredAt: Date(timeIntervalSince1970: Double(occurred) / 1000), installID: installID,
            feature: feature, configVersion: version, configHash: configHash, rolloutArm: arm, bucket: bucket,
            variant: variant, servedBy: servedBy, servedTier: servedTier, outcome: outcome, errorKind: errorKind,
            attemptCount: attempts, fellBack: fellBack, ttftMs: ttft, latencyMs: latency, inputTokens: input,
            outputTokens: output, tokensEstimated: estimated, costUSD: cost, checksTotal: checks,
            failedChecks: failed.isEmpty ? [] : failed.split(separator: "\n").map(String.init), cacheHit: cacheHit,
            labels: try LabelsJSON.decode(labels), hedged: hedged, costUnknown: costUnknown,
            inputRule: inputRule)
    }

    /// Runs a decoding; a failure is an unreadable `field_events` row, named with the database.
    func decode<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unreadableRow(path: database.location, table: "field_events", reason: "\(error)")
        }
    }
}
