import Foundation
import GRDB
import HybridStore
import HybridTestSupport
import Testing

/// `hybrid eval --shard I/N` and `hybrid merge`: shards run through the real CLI against a loopback
/// OpenAI-compatible server (`FakeChatCompletionsServer`, OpenAI's chat-completions wire format) merge into the
/// same run as one piece.
@Suite("hybrid eval --shard and hybrid merge", .serialized)
struct ShardMergeTests {
    /// Answers depend on the case only, so every arm of every execution gets the same text for a case; some
    /// cases answer the reference and some do not, so scores and pass rates vary.
    static func server() throws -> FakeChatCompletionsServer {
        try FakeChatCompletionsServer { prompt, _ in
            let number = CLIFixture.caseNumber(in: prompt) ?? 0
            return .reply(number % 3 == 0 ? "Something else entirely, case \(number)." : "The feeds were fine today.")
        }
    }

    /// A fixture with a two-model config and a 12-case dataset: 12 cases × 4 arms = 48 keys.
    static func fixture(_ fake: FakeChatCompletionsServer) throws -> (CLIFixture, [String]) {
        let fixture = try CLIFixture()
        let config = try fixture.writeConfig("config.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL)
        try fixture.writeDataset("cases.jsonl", count: 12)
        return (fixture, ["--config", config, "--feature", "summarize", "--dataset", "cases.jsonl", "--run-id", "r1"])
    }

    /// `hybrid eval` with `arguments` into `database`; fails the test unless it exits 0.
    static func eval(_ fixture: CLIFixture, _ arguments: [String], database: String) async throws {
        let outcome = try await fixture.hybrid(["eval"] + arguments + ["--db", database])
        try #require(outcome.status == 0, "\(outcome.output)")
    }

    /// Timings are measurements of wall time: they differ between any two executions, sharded or not. Both stores
    /// get the same timings, a function of the key, so everything derived from them (latency summaries, latency
    /// comparisons and the Holm adjustment over all comparisons) is compared too.
    static func fixTimings(_ database: String) throws {
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE results SET
                    total_ms = 40 + (CAST(substr(case_id, 2) AS INTEGER) * 37 + length(arm_id) * 11 + repeat_index) % 29,
                    ttft_ms = 5 + (CAST(substr(case_id, 2) AS INTEGER) * 13 + length(arm_id)) % 7,
                    decode_tokens_per_s = 100, cold_start = 0, completed_at = '2026-01-01 00:00:00.000'
                """)
        }
    }

    /// `report.json` of run r1 as a JSON object, with the run's start and finish times removed.
    static func report(_ fixture: CLIFixture, database: String, name: String) async throws -> NSDictionary {
        let outcome = try await fixture.hybrid(["report", "r1", "--db", database, "--out", fixture.path(name), "--format", "json"])
        try #require(outcome.status == 0, "\(outcome.output)")
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.path("\(name)/report.json")))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary).mutableCopy() as! NSMutableDictionary
        let run = try #require(object["run"] as? NSDictionary).mutableCopy() as! NSMutableDictionary
        run.removeObjects(forKeys: ["startedAt", "finishedAt"])
        object["run"] = run
        return object
    }

    static func rows(_ database: String) async throws -> Int {
        try await SQLiteResultStore(path: database).resultCount(run: "r1")
    }

    @Test func twoShardsMergedEqualTheRunDoneInOnePieceAndMergingAgainChangesNothing() async throws {
        let fake = try Self.server()
        defer { fake.stop() }
        let (fixture, arguments) = try Self.fixture(fake)
        defer { fixture.remove() }
        let whole = fixture.path("whole.sqlite"), one = fixture.path("s1.sqlite"), two = fixture.path("s2.sqlite")
        let merged = fixture.path("merged.sqlite")
        try await Self.eval(fixture, arguments, database: whole)
        try await Self.eval(fixture, arguments + ["--shard", "1/2"], database: one)
        try await Self.eval(fixture, arguments + ["--shard", "2/2"], database: two)
        let (first, second) = (try await Self.rows(one), try await Self.rows(two))
        #expect(first > 0 && second > 0 && first + second == 48, "shards of 48 keys: \(first) + \(second)")
        let shardRun = try #require(try await SQLiteResultStore(path: one).run(id: "r1"))
        #expect(shardRun.plannedCount == 48 && shardRun.status == .completed && shardRun.arguments["shard"] == .string("1/2"))

        let merge = try await fixture.hybrid(["merge", merged, one, two])
        #expect(merge.status == 0, "\(merge.output)")
        #expect(merge.output.contains("run r1: 48/48 keys in \(merged) (48 written now, 0 duplicates with the same content), completed"), "\(merge.output)")
        let mergedRun = try #require(try await SQLiteResultStore(path: merged).run(id: "r1"))
        #expect(mergedRun.arguments["shard"] == nil && mergedRun.arguments["mergedShards"] == .array([.string("1/2"), .string("2/2")]))

        let again = try await fixture.hybrid(["merge", merged, two, one, two])
        #expect(again.status == 0, "\(again.output)")
        // Every key of the inputs is already in the output (48), and shard 2 is given twice.
        #expect(again.output.contains("48/48 keys in \(merged) (0 written now, \(48 + second) duplicates with the same content), completed"), "\(again.output)")
        #expect(try await SQLiteResultStore(path: merged).run(id: "r1") == mergedRun)
        #expect(try await Self.rows(merged) == 48)

        try Self.fixTimings(whole)
        try Self.fixTimings(merged)
        let reportWhole = try await Self.report(fixture, database: whole, name: "whole")
        let reportMerged = try await Self.report(fixture, database: merged, name: "merged")
        #expect(reportWhole == reportMerged)
        #expect((reportWhole["run"] as? NSDictionary)?["status"] as? String == "completed")
    }

    @Test func aConflictNamesKeyFilesAndFieldsAndWritesNothingAMissingShardIsListedAndResumable() async throws {
        let fake = try Self.server()
        defer { fake.stop() }
        let (fixture, arguments) = try Self.fixture(fake)
        defer { fixture.remove() }
        let one = fixture.path("s1.sqlite"), tampered = fixture.path("s1-other.sqlite"), partial = fixture.path("partial.sqlite")
        try await Self.eval(fixture, arguments + ["--shard", "1/2"], database: one)
        let shardKeys = try await Self.rows(one)

        // The same shard run again elsewhere, with one output that differs.
        try FileManager.default.copyItem(atPath: one, toPath: tampered)
        let key = try await DatabaseQueue(path: tampered).write { db -> String in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, case_id, arm_id FROM results ORDER BY id LIMIT 1"))
            try db.execute(sql: "UPDATE results SET raw_output = 'changed', cost_usd = 1 WHERE id = ?", arguments: [row["id"] as Int64])
            return "r1/\(row["case_id"] as String)/\(row["arm_id"] as String)#0"
        }
        let conflict = try await fixture.hybrid(["merge", partial, one, tampered])
        #expect(conflict.status == 1, "\(conflict.output)")
        #expect(conflict.output.contains("conflict: result \(key) differs between \(one) and \(tampered) in rawOutput, costUSD"), "\(conflict.output)")
        #expect(conflict.output.contains("nothing was written to \(partial)"), "\(conflict.output)")
        #expect(!FileManager.default.fileExists(atPath: partial))

        // One shard alone: merged, listed as missing, exit 4, and resumable into a whole run.
        let missing = try await fixture.hybrid(["merge", partial, one])
        #expect(missing.status == 4, "\(missing.output)")
        #expect(missing.output.contains("run r1: \(48 - shardKeys) planned keys missing:"), "\(missing.output)")
        #expect(missing.output.components(separatedBy: "  missing r1/").count - 1 == min(20, 48 - shardKeys), "\(missing.output)")
        #expect(try await SQLiteResultStore(path: partial).run(id: "r1")?.status == .interrupted)

        // A conflicting input leaves an existing output exactly as it was (its rows; SQLite may checkpoint its WAL).
        let store = try SQLiteResultStore(path: partial)
        let (recordBefore, rowsBefore) = (try await store.run(id: "r1"), try await store.results(run: "r1"))
        let refused = try await fixture.hybrid(["merge", partial, tampered])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(try await store.run(id: "r1") == recordBefore)
        #expect(try await store.results(run: "r1") == rowsBefore)

        let resumed = try await fixture.hybrid(["eval", "--resume", "r1", "--db", partial, "--config", fixture.path("config.json")])
        #expect(resumed.status == 0, "\(resumed.output)")
        #expect(try await Self.rows(partial) == 48)
        #expect(try await SQLiteResultStore(path: partial).run(id: "r1")?.status == .completed)
    }

    @Test func aShardNeedsARunIDAndAResumeKeepsItsShard() async throws {
        let fake = try Self.server()
        defer { fake.stop() }
        let (fixture, arguments) = try Self.fixture(fake)
        defer { fixture.remove() }
        let db = fixture.path("s2.sqlite")
        let noRunID = try await fixture.hybrid(["eval", "--feature", "summarize", "--dataset", "cases.jsonl", "--shard", "1/2", "--db", db])
        #expect(noRunID.status == 64 && noRunID.output.contains("--shard needs --run-id"), "\(noRunID.output)")
        let zero = try await fixture.hybrid(["eval", "--resume", "r1", "--shard", "0/2", "--db", db])
        #expect(zero.status == 64 && zero.output.contains("shards numbered from 1"), "\(zero.output)")

        try await Self.eval(fixture, arguments + ["--shard", "2/2"], database: db)
        let other = try await fixture.hybrid(["eval", "--resume", "r1", "--shard", "1/2", "--db", db, "--config", fixture.path("config.json")])
        #expect(other.status == 1 && other.output.contains("shard 2/2 vs 1/2"), "\(other.output)")
        let same = try await fixture.hybrid(["eval", "--resume", "r1", "--db", db, "--config", fixture.path("config.json")])
        #expect(same.status == 0 && same.output.contains("already completed"), "\(same.output)")

        // An interrupted shard resumes its own slice only: the three lost keys, nothing of the other shard.
        let slice = try await Self.rows(db)
        try await DatabaseQueue(path: db).write { db in
            try db.execute(sql: "DELETE FROM results WHERE id IN (SELECT id FROM results ORDER BY id DESC LIMIT 3)")
            try db.execute(sql: "UPDATE runs SET status = 'interrupted'")
        }
        let requests = fake.requestCount
        let resumed = try await fixture.hybrid(["eval", "--resume", "r1", "--db", db, "--config", fixture.path("config.json")])
        #expect(resumed.status == 0 && resumed.output.contains("stored \(slice)/\(slice) results"), "\(resumed.output)")
        #expect(fake.requestCount == requests + 3)
        #expect(try await Self.rows(db) == slice)
        #expect(try await SQLiteResultStore(path: db).run(id: "r1")?.status == .completed)
    }
}
