import Foundation
import GRDB
import HybridCore
import HybridTestSupport
import Testing
@testable import HybridStore

import HybridProjectTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A writer process killed with SIGKILL must lose nothing it acknowledged and leave a consistent file.
@Suite("Durability")
struct DurabilityTests {
    /// The `hybrid-store-stress` executable SwiftPM built next to the test bundle (the test target depends on it).
    static func stressExecutable() throws -> URL {
        try BuiltExecutable.find("hybrid-store-stress", override: "HYBRID_STORE_STRESS", packageRoot: ProjectRoot.url)
    }

    struct StressError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("rows acknowledged by a writer killed with SIGKILL are all there after reopening, and the file is consistent")
    func sigkillMidRunLosesNothingAcknowledged() async throws {
        try await withTemporaryDirectory { directory in
            let total = 1_000_000
            let process = Process()
            process.executableURL = try Self.stressExecutable()
            process.arguments = [directory.databasePath, "crash-run", String(total), "4"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let pid = process.processIdentifier
            var killed = false
            defer {
                if !killed { kill(pid, SIGKILL) }
                process.waitUntilExit()
            }

            // Wait until the child has committed a few hundred results (watched through our own store, which
            // also proves a reader can follow a writer in another process), then kill it mid-write.
            var observed = 0
            var waited = 0
            while observed < 300 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 50
                if !process.isRunning {
                    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    throw StressError("the writer exited early (status \(process.terminationStatus)): \(stderr)")
                }
                // The child creates the file; it may not be there on the first polls.
                if FileManager.default.fileExists(atPath: directory.databasePath),
                    let store = try? SQLiteResultStore(path: directory.databasePath)
                {
                    observed = (try? await store.resultCount(run: "crash-run")) ?? 0
                }
                // A deadlock guard, not a performance assertion: 300 small inserts take well under a second.
                if waited > 180_000 { throw StressError("the writer stored only \(observed) results in 180 s") }
            }
            kill(pid, SIGKILL)
            killed = true
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGKILL)

            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n")
            let acknowledged = Set(lines.compactMap { line -> Int? in
                line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
            })
            #expect(acknowledged.count >= 300)
            #expect(acknowledged.count < total, "the writer must have been killed mid-run")

            let database = try HybridDatabase(path: directory.databasePath)
            let store = SQLiteResultStore(database: database)
            let integrity = try await database.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"])
            let foreignKeyViolations = try await database.writer.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count }
            #expect(foreignKeyViolations == 0)

            let stored = try await store.completedKeys(run: "crash-run")
            let storedIndexes = Set(stored.map(\.repeatIndex))
            #expect(acknowledged.isSubset(of: storedIndexes), "lost acknowledged results: \(acknowledged.subtracting(storedIndexes).sorted().prefix(20))")
            // At most one insert per writer task can have committed without its ack line being written.
            #expect(storedIndexes.count - acknowledged.count <= 4)
            #expect(storedIndexes.count == stored.count)

            // Every stored row decodes and holds what the writer wrote.
            var checked = 0
            try await store.forEachResult(run: "crash-run", batchSize: 500) { result in
                checked += 1
                #expect(result.rawOutput?.hasPrefix("output \(result.key.repeatIndex) ") == true)
                #expect(result.usage?.completionTokens == result.key.repeatIndex * 2)
                #expect(result.timings.totalMs == Double(result.key.repeatIndex) + 0.5)
            }
            #expect(checked == stored.count)
            let run = try #require(try await store.run(id: "crash-run"))
            #expect(run.status == .running, "a killed run stays running until it is resumed or marked interrupted")

            // Resuming through the store fills exactly the missing keys: nothing lost, nothing duplicated.
            let resumeKeys = (0..<(storedIndexes.max() ?? 0) + 10).filter { !storedIndexes.contains($0) }
            var inserted = 0
            for index in resumeKeys {
                var result = Fixtures.minimalResult(run: "crash-run", caseID: "case", arm: "arm", repeatIndex: index)
                result.feature = "stress"
                if try await store.insertResult(result) { inserted += 1 }
            }
            #expect(inserted == resumeKeys.count)
            #expect(try await store.resultCount(run: "crash-run") == stored.count + resumeKeys.count)
        }
    }
}
