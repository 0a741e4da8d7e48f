import Foundation
import GRDB
import HybridCore
import HybridTestSupport
import Testing
@testable import HybridStore

/// `forEachMeasures`: the SQLite store reads typed columns and the `v3` side tables; what it hands out must equal
/// the measures of the whole records, for new writes and for rows backfilled from a `v2` file.
@Suite("Result measures")
struct ResultMeasuresTests {
    /// Two runs written interleaved, so a page's id range also holds the other run's side rows.
    static func interleaved() -> [ResultRecord] {
        (0..<7).flatMap { index -> [ResultRecord] in
            var full = Fixtures.fullResult(caseID: "case-\(index)", arm: index % 2 == 0 ? "arm-a" : "arm-b")
            if index % 3 == 0 { full.error = nil }
            if index % 2 == 1 { full.rawOutput = nil }
            return [full, Fixtures.minimalResult(run: "run-2", caseID: "case-\(index)"), Fixtures.fullResult(run: "run-2", caseID: "x-\(index)")]
        }
    }

    private func measures(_ store: SQLiteResultStore, run: String, batchSize: Int) async throws -> [ResultMeasures] {
        var out: [ResultMeasures] = []
        try await store.forEachMeasures(run: run, batchSize: batchSize) { out.append($0) }
        return out
    }

    private func recordMeasures(_ store: SQLiteResultStore, run: String) async throws -> [ResultMeasures] {
        try await store.results(run: run).map(ResultMeasures.init)
    }

    @Test("measures from columns and side tables equal the measures of whole records, across page boundaries")
    func matchesRecords() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteResultStore(path: directory.databasePath)
            try await store.createRun(Fixtures.run())
            try await store.createRun(Fixtures.run("run-2"))
            try await store.insertResults(Self.interleaved())
            for run in ["run-1", "run-2"] {
                let expected = try await recordMeasures(store, run: run)
                #expect(expected.count == 7 || expected.count == 14)
                #expect(try await measures(store, run: run, batchSize: 3) == expected)
                #expect(try await measures(store, run: run, batchSize: 1_000) == expected)
            }
        }
    }

    @Test("a v2 file is migrated: side tables are backfilled from the JSON columns, repeated names merged")
    func backfillsVersion2File() async throws {
        try await withTemporaryDirectory { directory in
            var records = Self.interleaved()
            // Written before constraints were one per name: the same name twice must count as one verdict.
            records[0].constraints = [ConstraintOutcome(name: "must_contain", passed: true)]
            let written = records
            do {
                let queue = try DatabaseQueue(path: directory.databasePath, configuration: HybridDatabase.configuration())
                try HybridDatabase.migrator.migrate(queue, upTo: "v2")
                try await queue.write { db in
                    try Stored(Fixtures.run()).insert(db)
                    try Stored(Fixtures.run("run-2")).insert(db)
                    for record in written {
                        try db.execute(sql: ResultRecord.insertSQL, arguments: StatementArguments(try record.insertValues()))
                    }
                    try db.execute(
                        sql: "UPDATE results SET constraints_json = ? WHERE id = 1",
                        arguments: [#"[{"name":"must_contain","passed":true},{"name":"must_contain","passed":false}]"#])
                }
            }
            let store = try SQLiteResultStore(path: directory.databasePath)
            for run in ["run-1", "run-2"] {
                #expect(try await measures(store, run: run, batchSize: 4) == recordMeasures(store, run: run))
            }
            let first = try await measures(store, run: "run-1", batchSize: 1).first
            #expect(first?.constraints == [ResultMeasures.Check(name: "must_contain", passed: false)])
        }
    }

    @Test("cancelling the reader stops the stream with a cancelled error (pages are read in tasks of their own)")
    func stopsWhenCancelled() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteResultStore(path: directory.databasePath)
            try await store.createRun(Fixtures.run())
            try await store.insertResults((0..<20).map { Fixtures.minimalResult(caseID: "case-\($0)") })
            let reader = Task {
                var seen = 0
                try await store.forEachMeasures(run: "run-1", batchSize: 2) { _ in
                    seen += 1
                    if seen == 1 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return seen
            }
            await #expect(throws: StoreError.self) { try await reader.value }
        }
    }

    @Test("deleting a run removes its side rows and packed measures")
    func cascades() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteResultStore(path: directory.databasePath)
            try await store.createRun(Fixtures.run())
            try await store.insertResult(Fixtures.fullResult())
            let remaining = try await store.database.write("delete") { db in
                try db.execute(sql: "DELETE FROM runs")
                return try Int.fetchOne(db, sql: """
                    SELECT (SELECT COUNT(*) FROM result_scores) + (SELECT COUNT(*) FROM result_constraints)
                        + (SELECT COUNT(*) FROM result_measures)
                    """)
            }
            #expect(remaining == 0)
        }
    }
}
