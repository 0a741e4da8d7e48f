import Foundation
import HybridCore
@testable import HybridStore
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// `RunMerger` on files written through the store: plan conflicts, config snapshots, inferred missing keys. The
/// end-to-end behaviour through `hybrid eval --shard` and `hybrid merge` is in `HybridCLITests/ShardMergeTests`.
@Suite struct RunMergerTests {
    /// A database file `name` in `directory` holding `run` and `results`.
    static func file(
        _ name: String, in directory: TemporaryDirectory, run: RunRecord, results: [ResultRecord],
        snapshots: [ConfigSnapshotRecord] = []
    ) async throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        let database = try HybridDatabase(path: path)
        let store = SQLiteResultStore(database: database)
        try await store.createRun(run)
        try await store.insertResults(results)
        for snapshot in snapshots { try await SQLiteConfigSnapshotStore(database: database).saveSnapshot(snapshot) }
        return path
    }

    @Test func runsWithAnotherPlanConflictByFieldAndNothingIsWritten() async throws {
        try await withTemporaryDirectory { directory in
            var other = Fixtures.run()
            other.seed = 7
            other.configHash = "sha256:other"
            let a = try await Self.file("a.sqlite", in: directory, run: Fixtures.run(), results: [Fixtures.minimalResult()])
            let b = try await Self.file("b.sqlite", in: directory, run: other, results: [Fixtures.minimalResult(caseID: "case-2")])
            let output = directory.url.appendingPathComponent("out.sqlite").path
            let outcome = try RunMerger(output: output, inputs: [a, b]).merge()
            #expect(!outcome.written)
            #expect(outcome.conflicts.map(\.description) == ["run run-1 differs between \(a) and \(b) in configHash, seed"])
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(throws: StoreError.self) { try RunMerger(output: a, inputs: [b, a]).merge() }
        }
    }

    @Test func snapshotsAreCopiedOnceAndMissingKeysAreInferredFromTheCasesPresent() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = ConfigSnapshotRecord(
                sourceURL: "https://example.com/c.json", version: 3, fetchedAt: Fixtures.date, rawBytes: Data("{}".utf8))
            let a = try await Self.file(
                "a.sqlite", in: directory, run: Fixtures.run(),
                results: [Fixtures.minimalResult(), Fixtures.minimalResult(arm: "arm-b")], snapshots: [snapshot])
            let b = try await Self.file(
                "b.sqlite", in: directory, run: Fixtures.run(), results: [Fixtures.minimalResult(caseID: "case-2")],
                snapshots: [snapshot])
            let output = directory.url.appendingPathComponent("out.sqlite").path
            let outcome = try RunMerger(output: output, inputs: [a, b]).merge()
            #expect(outcome.written && outcome.conflicts.isEmpty && outcome.snapshotsCopied == 1)
            let run = try #require(outcome.runs.first)
            #expect(run.missing == [ResultKey(runID: "run-1", caseID: "case-2", armID: "arm-b", repeatIndex: 0)])
            #expect(run.missingUnlisted == 12 - 3 - 1)
            #expect(run.record.status == .interrupted && !run.isComplete)
            let copied = try await SQLiteConfigSnapshotStore(database: HybridDatabase(path: output)).snapshots(source: snapshot.sourceURL)
            #expect(copied.map(\.rawBytes) == [snapshot.rawBytes])

            var changed = snapshot
            changed.rawBytes = Data("{\"version\":3}".utf8)
            let c = try await Self.file("c.sqlite", in: directory, run: Fixtures.run("run-2"), results: [], snapshots: [changed])
            let refused = try RunMerger(output: output, inputs: [c]).merge()
            #expect(refused.conflicts.map(\.fields) == [["raw_bytes"]] && !refused.written)
        }
    }
}
