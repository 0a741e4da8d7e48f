import Foundation
import GRDB
import HybridCore
import HybridTestSupport
import Testing
@testable import HybridStore

/// `result_measures` (`v7`): the packed row written beside each result must read back as the measures of the whole
/// record, whatever its values; a damaged blob is an error naming its row; a result without a packed row is still
/// read (from the typed columns and side tables).
@Suite("Packed measures")
struct PackedMeasuresTests {
    /// Values at the layout's edges: multi-byte texts and an empty one, large and negative counters (several varint
    /// bytes), a signed zero (SQLite keeps REAL zeros unsigned), no usage, many verdicts and scores.
    static func edgeResults() -> [ResultRecord] {
        var edge = Fixtures.fullResult(caseID: "ケース-\u{1F600}", arm: "", repeatIndex: 1_000_000)
        edge.costUSD = -0.0
        edge.timings.ttftMs = 0
        edge.timings.retryBackoffMs = -0.0
        edge.usage = TokenUsage(promptTokens: Int(Int32.max) * 4, completionTokens: -3, cacheCreationTokens: 7)
        edge.retries = 300
        edge.constraints = (0..<140).map { ConstraintOutcome(name: "c\($0)", passed: $0 % 2 == 0) }
        edge.scores = (0..<130).map { QualityScore(scorer: $0 % 2 == 0 ? "s" : "", value: Double($0) / 7) }
        var noUsage = Fixtures.minimalResult(caseID: "case-2")
        noUsage.usage = nil
        return [edge, noUsage, Fixtures.fullResult(caseID: "case-3")]
    }

    private func measures(_ store: SQLiteResultStore, batchSize: Int = 2) async throws -> [ResultMeasures] {
        var out: [ResultMeasures] = []
        try await store.forEachMeasures(run: "run-1", batchSize: batchSize) { out.append($0) }
        return out
    }

    private func store(_ directory: TemporaryDirectory, _ results: [ResultRecord]) async throws -> SQLiteResultStore {
        let store = try SQLiteResultStore(path: directory.databasePath)
        try await store.createRun(Fixtures.run())
        try await store.insertResults(results)
        return store
    }

    @Test("edge values read back from the packed rows as the whole records' measures")
    func edgeValuesRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(directory, Self.edgeResults())
            let expected = try await store.results(run: "run-1").map(ResultMeasures.init)
            let packedRows = try await store.database.read("count") { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM result_measures")
            }
            #expect(packedRows == expected.count)
            let read = try await measures(store)
            #expect(read == expected)
            #expect(read.first?.usage?.cacheCreationTokens == 0)  // no column holds it, so no page has it
            #expect(read.first?.costUSD?.sign == .plus)
        }
    }

    @Test("a result without a packed row is read from the columns and side tables")
    func missingPackedRowFallsBack() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(directory, Self.edgeResults())
            let expected = try await measures(store, batchSize: 10)
            try await store.database.write("drop one") { db in
                try db.execute(sql: "DELETE FROM result_measures WHERE result_id = 2")
            }
            #expect(try await measures(store, batchSize: 10) == expected)
            #expect(try await measures(store, batchSize: 1) == expected)
        }
    }

    @Test("a hand edit of a result or its side rows is read, not hidden behind its packed row")
    func editsDropThePackedRow() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(directory, Self.edgeResults())
            try await store.database.write("edit") { db in
                try db.execute(sql: """
                    UPDATE results SET total_ms = 7 WHERE id = 2;
                    UPDATE result_scores SET value = 0.5 WHERE result_id = 3 AND ordinal = 0
                    """)
            }
            let read = try await measures(store)
            #expect(read.map(\.timings.totalMs) == [912.5, 7, 912.5])
            #expect(read.last?.scores.first?.value == 0.5)
            let packed = try await store.database.read("count") { db in
                try Int.fetchAll(db, sql: "SELECT result_id FROM result_measures")
            }
            #expect(packed == [1])
        }
    }

    @Test("a cut-short blob is an error naming the table and the row")
    func damagedBlobNamesTheRow() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await store(directory, Self.edgeResults())
            try await store.database.write("damage") { db in
                try db.execute(sql: "UPDATE result_measures SET packed = substr(packed, 1, 20) WHERE result_id = 3")
            }
            let error = await #expect(throws: StoreError.self) { try await measures(store) }
            let text = String(describing: error)
            #expect(text.contains("result_measures") && text.contains("row id 3"))
        }
    }

    @Test("a v6 file is migrated: every stored result gets its packed row, which reads as before")
    func backfillsVersion6File() async throws {
        try await withTemporaryDirectory { directory in
            let before: [ResultMeasures]
            do {
                let store = try await store(directory, Self.edgeResults() + ResultMeasuresTests.interleaved().filter { $0.key.runID == "run-1" })
                before = try await measures(store, batchSize: 3)
                // What a v6 build left: the same tables without `result_measures`.
                try await store.database.write("to v6") { db in
                    try db.execute(sql: "DROP TABLE result_measures; DELETE FROM grdb_migrations WHERE identifier = 'v7'")
                    let triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'result_measures_%'"
                    for trigger in try String.fetchAll(db, sql: triggers) { try db.execute(sql: "DROP TRIGGER \(trigger)") }
                }
            }
            let store = try SQLiteResultStore(path: directory.databasePath)
            let packedRows = try await store.database.read("count") { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM result_measures")
            }
            #expect(packedRows == before.count)
            #expect(try await measures(store, batchSize: 3) == before)
            #expect(try await measures(store, batchSize: 3) == store.results(run: "run-1").map(ResultMeasures.init))
        }
    }
}
