import Foundation
import HybridCore
@testable import HybridRunner
import HybridStore
import Synchronization
import Testing

/// What ends a group's wait for more results. Each writer here has an hour-long window: a test that relied on the
/// window passing would hang instead of passing by luck.
@Suite struct ResultWriterTests {
    private static let hour = Duration.seconds(3600)

    private func store() async throws -> SQLiteResultStore {
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        try await store.createRun(RunRecord(id: "w", features: ["summarize"], datasetPath: "d.jsonl", datasetHash: "h", plannedCount: 600, seed: 1))
        return store
    }

    private func record(_ index: Int) -> ResultRecord {
        ResultRecord(
            key: ResultKey(runID: "w", caseID: "case-\(index)", armID: "a", repeatIndex: 0), feature: "summarize",
            promptVariant: "default", modelID: "m", tier: .onDevice, renderedPromptHash: "h", rawOutput: "out \(index)",
            parsedOutput: nil, usage: nil, timings: ResultTimings(totalMs: 1))
    }

    @Test func finishCommitsTheLastGroupWithoutWaitingOutItsWindow() async throws {
        let store = try await store()
        let writer = ResultWriter(store: store, window: Self.hour) { _ in }
        for index in 0..<3 { try await writer.submit(record(index), cache: nil) }
        try await writer.finish()
        #expect(try await store.resultCount(run: "w") == 3)
        // A writer that finished takes results again (a worker's next batch), and finishes them at once too.
        try await writer.submit(record(3), cache: nil)
        try await writer.finish()
        #expect(try await store.resultCount(run: "w") == 4)
    }

    @Test func aFullGroupCommitsBeforeItsWindowEnds() async throws {
        let store = try await store()
        let stored = Mutex(0)
        let (committed, signal) = AsyncStream<Void>.makeStream()
        let target = ResultWriter.groupTarget
        let writer = ResultWriter(store: store, limit: target * 2, window: Self.hour) { _ in
            if stored.withLock({ count in
                count += 1
                return count == target
            }) { signal.finish() }
        }
        for index in 0..<target { try await writer.submit(record(index), cache: nil) }
        for await _ in committed {}
        #expect(try await store.resultCount(run: "w") == target, "stored without finish()")
        try await writer.finish()
    }
}
