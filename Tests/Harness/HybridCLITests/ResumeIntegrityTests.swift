import Foundation
import HybridStore
import HybridTestSupport
import Testing

/// A run's config and plan are fixed when it starts: `--resume` under anything else is refused by name and
/// changes nothing, and a completed run stays completed.
@Suite("hybrid eval --resume integrity", .serialized)
struct ResumeIntegrityTests {
    /// What a refused or idle resume must leave exactly as it was.
    struct RunState: Equatable {
        var rows: Int
        var status: RunStatus
        var configHash: String?
        var finishedAt: Date?
        var plannedCount: Int
    }

    static func state(_ database: String, run: String) async throws -> RunState {
        let store = try SQLiteResultStore(path: database)
        let record = try #require(try await store.run(id: run))
        return RunState(
            rows: try await store.resultCount(run: run), status: record.status, configHash: record.configHash,
            finishedAt: record.finishedAt, plannedCount: record.plannedCount)
    }

    @Test func resumingUnderAnotherConfigDatasetOrPlanIsRefusedAndChangesNothing() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The feeds were fine today.") }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let original = try fixture.writeConfig("a.json", models: ["fake-a", "fake-b"], baseURL: fake.baseURL)
        let other = try fixture.writeConfig("b.json", models: ["fake-a", "fake-b", "fake-c"], baseURL: fake.baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: 6)
        let db = fixture.database

        // Global options before the subcommand, as the README shows them.
        let first = try await fixture.hybrid(
            ["--db", db, "--config", original, "eval", "--feature", "summarize", "--dataset", dataset, "--run-id", "r1"])
        #expect(first.status == 0, "\(first.output)")
        let before = try await Self.state(db, run: "r1")
        #expect(before.rows == 24 && before.status == .completed)

        let otherConfig = try await fixture.hybrid(["eval", "--resume", "r1", "--config", other, "--db", db])
        #expect(otherConfig.status == 1, "\(otherConfig.output)")
        #expect(otherConfig.output.contains("config hash"), "\(otherConfig.output)")
        #expect(otherConfig.output.contains("arms added: bullet@fake-c, concise@fake-c"), "\(otherConfig.output)")
        #expect(otherConfig.output.contains("(run r1 started with config: \(original))"), "\(otherConfig.output)")
        #expect(try await Self.state(db, run: "r1") == before)

        let moreRepeats = try await fixture.hybrid(["eval", "--resume", "r1", "--config", original, "--db", db, "--repeat", "2"])
        #expect(moreRepeats.status == 1 && moreRepeats.output.contains("repeats 1 vs 2"), "\(moreRepeats.output)")
        let fewerModels = try await fixture.hybrid(["eval", "--resume", "r1", "--config", original, "--db", db, "--models", "fake-a"])
        #expect(fewerModels.status == 1 && fewerModels.output.contains("arms removed: bullet@fake-b, concise@fake-b"), "\(fewerModels.output)")
        #expect(try await Self.state(db, run: "r1") == before)

        let same = try await fixture.hybrid(["eval", "--resume", "r1", "--config", original, "--db", db])
        #expect(same.status == 0, "\(same.output)")
        #expect(same.output.contains("already completed (24/24 results); nothing was sent or changed"), "\(same.output)")
        #expect(try await Self.state(db, run: "r1") == before)
        let requestsSoFar = fake.requestCount

        try fixture.writeDataset("cases.jsonl", count: 6, extra: " Edited.")
        let editedDataset = try await fixture.hybrid(["eval", "--resume", "r1", "--config", original, "--db", db])
        #expect(editedDataset.status == 1 && editedDataset.output.contains("dataset hash"), "\(editedDataset.output)")
        #expect(try await Self.state(db, run: "r1") == before)
        #expect(fake.requestCount == requestsSoFar, "a refused or idle resume sends nothing")

        // `--db` before the subcommand reaches commands with their own option groups too.
        let report = try await fixture.hybrid(["--db", db, "report", "r1", "--out", fixture.path("report"), "--format", "json"])
        #expect(report.status == 0, "\(report.output)")
        #expect(FileManager.default.fileExists(atPath: fixture.path("report/report.json")))
    }
}
