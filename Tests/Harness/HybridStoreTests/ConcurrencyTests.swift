import Foundation
import GRDB
import HybridCore
import HybridTestSupport
import Testing
@testable import HybridStore

@Suite("Concurrent access")
struct ConcurrencyTests {
    /// Blocks a thread until signalled; the open write transaction below must not run on the cooperative pool's
    /// threads only by luck, so the hand-over uses semaphores and a generous deadlock guard.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func open() { semaphore.signal() }
        /// False when the gate stayed closed for 120 s (a deadlock, reported as a failure instead of a hang).
        func wait() -> Bool { semaphore.wait(timeout: .now() + 120) == .success }
        func waitAsync() async -> Bool {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: self.wait()) }
            }
        }
    }

    @Test("a reader gets the last committed state while a write transaction is still open")
    func readersDoNotWaitForTheWriter() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteResultStore(path: directory.databasePath)
            try await store.createRun(Fixtures.run())
            try await store.insertResults((0..<5).map { Fixtures.minimalResult(repeatIndex: $0) })

            let insideWrite = Gate()
            let readerDone = Gate()
            let writer = Task {
                try await store.database.writer.write { db in
                    try Stored(Fixtures.minimalResult(repeatIndex: 99)).insert(db)
                    insideWrite.open()
                    // Hold the transaction open until the reader has finished.
                    return readerDone.wait()
                }
            }
            #expect(await insideWrite.waitAsync())
            // With a single connection this read would queue behind the open transaction and the writer would
            // time out waiting for it; with the pool it runs now and sees the committed five rows, not six.
            let countDuringWrite = try await store.resultCount(run: "run-1")
            let keysDuringWrite = try await store.completedKeys(run: "run-1")
            readerDone.open()
            let writerSawReader = try await writer.value
            #expect(writerSawReader, "the reader finished only after the write transaction gave up")
            #expect(countDuringWrite == 5)
            #expect(keysDuringWrite.count == 5)
            #expect(try await store.resultCount(run: "run-1") == 6)
        }
    }

    @Test("readers streaming while many tasks write always see consistent, growing snapshots")
    func concurrentReadersAndWriters() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteResultStore(path: directory.databasePath)
            try await store.createRun(Fixtures.run())
            let writers = 4
            let perWriter = 100

            let readings = try await withThrowingTaskGroup(of: [Int].self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        for index in 0..<perWriter {
                            let inserted = try await store.insertResult(
                                Fixtures.minimalResult(caseID: "w\(writer)", repeatIndex: index)
                            )
                            if !inserted { throw ConcurrencyError("key w\(writer)#\(index) reported as duplicate") }
                        }
                        return []
                    }
                }
                for _ in 0..<3 {
                    group.addTask {
                        var counts: [Int] = []
                        while counts.last != writers * perWriter {
                            let keys = try await store.completedKeys(run: "run-1")
                            var streamed = Set<ResultKey>()
                            try await store.forEachResult(run: "run-1", batchSize: 64) { streamed.insert($0.key) }
                            // Streaming pages may see rows committed after completedKeys, never fewer.
                            if !keys.isSubset(of: streamed) { throw ConcurrencyError("stream missed committed keys") }
                            counts.append(keys.count)
                            await Task.yield()
                        }
                        return counts
                    }
                }
                var all: [[Int]] = []
                for try await counts in group where !counts.isEmpty { all.append(counts) }
                return all
            }
            #expect(readings.count == 3)
            for counts in readings {
                #expect(counts == counts.sorted(), "a later read saw fewer results than an earlier one")
                #expect(counts.last == writers * perWriter)
            }
            #expect(try await store.resultCount(run: "run-1") == writers * perWriter)
        }
    }

    struct ConcurrencyError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
