import Foundation
import HybridConfig
import HybridCore
@testable import HybridRunner
import HybridStore
import HybridTestSupport
import Testing

/// `Dataset.open` streams a JSONL file (issue #10): only line boundaries and the hash are read before the first
/// request, cases are decoded as they are dispatched, and the whole file is checked while the run sends. The plan
/// must be exactly the one a loaded dataset gives, and a bad line must still stop the run with its file and line.
@Suite(.serialized) struct StreamedDatasetTests {
    private func temporaryFile(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString).jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func line(_ i: Int) -> String {
        #"{"id":"c\#(i)","input":{"input":"Case \#(i) says the weather is fine."},"reference":{"expectedText":"Fine."}}"#
    }

    @Test func aStreamedDatasetGivesExactlyTheLoadedPlan() async throws {
        // Blank lines, comments and white space around lines are skipped by both.
        let path = try temporaryFile((1...50).map(Self.line) + ["", "  // a comment", "\t" + Self.line(51) + "  "])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try Dataset.load(path: path)
        let streamed = try Dataset.open(path: path)
        #expect(streamed.isStreamed && !loaded.isStreamed)
        #expect(streamed.count == 51 && streamed.contentHash == loaded.contentHash)
        #expect(try (0..<streamed.count).map { try streamed.evalCase(at: $0) } == loaded.cases)

        let document = try EvalRunnerTests.config(models: ["a": "http://127.0.0.1:9/v1", "b": "http://127.0.0.1:9/v1"])
        let plans = try [loaded, streamed].map { data in
            try EvalPlan(runID: "r", feature: "summarize", config: document, configHash: "h", dataset: data, repeats: 2, limit: 40, seed: 7)
        }
        #expect(plans[0].workItems == plans[1].workItems)
        #expect(plans[0].plannedCount == plans[1].plannedCount && plans[1].plannedCount == 40 * 2 * 2 * 2)
        try await plans[1].validateCases()
    }

    @Test func validationReportsEveryBadLineAsLoadingDoes() async throws {
        let path = try temporaryFile([Self.line(1), "{not json", Self.line(2), Self.line(1), #"{"id":"x"}"#])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loadError = try #require(throws: DatasetError.self) { try Dataset.load(path: path) }
        let streamed = try Dataset.open(path: path)
        #expect(streamed.count == 5)
        // Decoded when dispatched: a bad line names its file and line.
        let lineError = try #require(throws: DatasetError.self) { try streamed.evalCase(at: 1) }
        #expect(lineError.description.hasPrefix("\(path):2: not valid JSON"))
        do {
            try await streamed.validate { _ in }
            Issue.record("a dataset with bad lines passed")
        } catch {
            guard case .dataset(let error) = error else { throw error }
            #expect(error == loadError)
            #expect(error.description.contains("\(path):2:") && error.description.contains("\(path):4: duplicate id"))
        }
    }

    /// The first requests leave before a 200,000-line file has been read whole: its last line is bad, yet the
    /// server sees requests before the run stops on that line, and nothing is stored (no run, no results).
    @Test func requestsLeaveBeforeA200kLineFileIsCheckedAndALateBadLineStoresNothing() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine.") }
        defer { fake.stop() }
        let count = 200_000
        var text = ""
        text.reserveCapacity(count * 110)
        for i in 1..<count { text += Self.line(i) + "\n" }
        text += #"{"id":"last","input":{"input":"Bad: a number"},"reference":{"expectedText":7}}"# + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-200k-\(UUID().uuidString).jsonl").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let document = try EvalRunnerTests.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(
            runID: "big", feature: "summarize", config: document, configHash: "h", dataset: try Dataset.open(path: path),
            variants: ["concise"])
        #expect(plan.plannedCount == count)
        let runner = EvalRunner(store: store, models: EvalRunnerTests.models(document), options: EvalOptions(concurrency: 2))
        do {
            _ = try await runner.run(plan)
            Issue.record("the run went on past a bad line")
        } catch {
            guard case .dataset(let datasetError) = error else { throw error }
            #expect(datasetError.description.contains("\(path):\(count):"))
        }
        #expect(fake.requestCount > 0, "no request left before the file was checked whole")
        #expect(try await store.run(id: "big") == nil)
        #expect(try await store.resultCount(run: "big") == 0)
    }

    @Test func aStreamedRunStoresEveryCaseAndCreatesItsRunOnce() async throws {
        let fake = try FakeChatCompletionsServer { _, _ in .reply("The weather is fine.") }
        defer { fake.stop() }
        let path = try temporaryFile((1...30).map(Self.line))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let document = try EvalRunnerTests.config(models: ["fake": fake.baseURL])
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        let plan = try EvalPlan(runID: "s", feature: "summarize", config: document, configHash: "h", dataset: try Dataset.open(path: path))
        let summary = try await EvalRunner(store: store, models: EvalRunnerTests.models(document)).run(plan)
        #expect(summary.stored == 60 && !summary.interrupted)
        let run = try #require(try await store.run(id: "s"))
        #expect(run.status == .completed && run.plannedCount == 60)
        // Hashed on its own thread while the run sent, and recorded once known.
        #expect(run.datasetHash == (try Dataset.load(path: path)).contentHash)
        #expect(Set(try await store.results(run: "s").map(\.key.caseID)).count == 30)
        // The run id is taken now: a second streamed run under it is refused before anything is sent.
        let before = fake.requestCount
        await #expect(throws: EvalError.self) { try await EvalRunner(store: store, models: EvalRunnerTests.models(document)).run(plan) }
        #expect(fake.requestCount == before)
    }

    @Test func aMissingOrEmptyFileIsRefusedAsLoadingRefusesIt() throws {
        let missing = "/nonexistent/data.jsonl"
        let loadError = try #require(throws: DatasetError.self) { try Dataset.load(path: missing) }
        #expect(throws: loadError) { try Dataset.open(path: missing) }
        let empty = try temporaryFile(["", "  // only a comment"])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: DatasetError.empty(path: empty)) { try Dataset.open(path: empty) }
    }

    /// The compact work order is the order shuffling the items themselves gave: a run resumed by an older or newer
    /// build sends in the same order, and `keeping` (a resume's missing keys) keeps it.
    @Test func theWorkOrderIsTheSeededShuffleOfEveryKeyOnce() throws {
        let document = try EvalRunnerTests.config(models: ["a": "http://127.0.0.1:9/v1", "b": "http://127.0.0.1:9/v1"])
        let cases = (1...10).map { EvalCase(id: "c\($0)", input: ["input": "text \($0)"], line: $0) }
        let plan = try EvalPlan(
            runID: "r", feature: "summarize", config: document, configHash: "h",
            dataset: Dataset(path: "memory.jsonl", cases: cases, contentHash: "h"), repeats: 3, seed: 11)
        var expected: [EvalPlan.WorkItem] = []
        for caseIndex in 0..<10 {
            for repeatIndex in 0..<3 {
                for arm in plan.arms { expected.append(EvalPlan.WorkItem(caseIndex: caseIndex, arm: arm, repeatIndex: repeatIndex)) }
            }
        }
        var generator = SeededGenerator(seed: 11)
        expected.shuffle(using: &generator)
        #expect(plan.workItems == expected && plan.workItems.count == plan.plannedCount)
        #expect(Array(plan.workOrder.keeping { $0.repeatIndex != 1 }) == expected.filter { $0.repeatIndex != 1 })
    }
}
