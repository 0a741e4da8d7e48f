import Foundation
import HybridStore
import HybridTestSupport
import Testing

/// The real CLI over a streamed dataset (issue #10): a bad line at the end of the file, found after the first
/// requests left, still fails the eval with `file:line` and exit 1 and leaves the database as it was;
/// `--skip-invalid` reads the whole file first and runs the valid lines.
@Suite(.serialized) struct StreamedDatasetCLITests {
    @Test func aLateBadLineFailsTheEvalAndStoresNothingUnlessSkipped() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The feeds were fine today.") }
        defer { fake.stop() }
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try fixture.writeConfig("a.json", models: ["fake-a"], baseURL: fake.baseURL)
        let dataset = try fixture.writeDataset("cases.jsonl", count: 300)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dataset))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n{\"id\": \"late\", \"input\": \"not an object\"}\n".utf8))
        try handle.close()
        let arguments = ["eval", "--feature", "summarize", "--dataset", dataset, "--variants", "concise", "--config", config, "--db", fixture.database]

        let failed = try await fixture.hybrid(arguments + ["--run-id", "r1"])
        #expect(failed.status == 1, "\(failed.output)")
        #expect(failed.output.contains("\(dataset):301: \"input\" must be an object"), "\(failed.output)")
        // The bad line is the first thing said: no plan of "301 results" that never ran comes before it.
        #expect(!failed.output.contains("run r1:"), "\(failed.output)")
        #expect(try await SQLiteResultStore(path: fixture.database).run(id: "r1") == nil)

        let skipped = try await fixture.hybrid(arguments + ["--run-id", "r2", "--skip-invalid"])
        #expect(skipped.status == 0, "\(skipped.output)")
        #expect(skipped.output.contains("run r2: feature summarize, 300 cases × 1 arms × 1 = 300 results"), "\(skipped.output)")
        let store = try SQLiteResultStore(path: fixture.database)
        #expect(try await store.resultCount(run: "r2") == 300)
        #expect(try await store.run(id: "r2")?.skippedInvalidLines == 1)
    }
}
