import Foundation
import HybridCore
import HybridRouter
import HybridTestSupport
import Testing

import HybridProjectTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process writing the file-backed ledger, killed with SIGKILL at an arbitrary point, never leaves a torn file and
/// never loses a write it acknowledged.
@Suite("FileSpendLedger under SIGKILL", .serialized)
struct FileSpendLedgerCrashTests {
    static let month = BillingMonth(year: 2025, month: 6)!

    static func writer() throws -> URL {
        try BuiltExecutable.find("hybrid-ledger-stress", override: "HYBRID_LEDGER_STRESS", packageRoot: ProjectRoot.url)
    }

    @Test("three writers killed mid-run: every acknowledged write is in the file, and the file always decodes")
    func sigkillLosesNothingAcknowledged() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("spend.json")
            var total = 0
            for round in 1...3 {
                let acknowledged = try await Self.runAndKill(writingTo: url, after: total + 15)
                let record = try #require(try await FileSpendLedger(url: url).spendRecords(month: Self.month).first, "round \(round)")
                #expect(record.requestCount >= total + 15, "round \(round)")
                // The write in flight when the kill came may or may not have been renamed into place.
                #expect(record.requestCount >= acknowledged && record.requestCount <= acknowledged + 1, "round \(round): \(record.requestCount) vs ack \(acknowledged)")
                #expect(abs(record.usd - Double(record.requestCount) * 0.01) < 1e-9)
                total = record.requestCount
            }
        }
    }

    /// Starts a writer on `url`, SIGKILLs it once the file holds `count` requests, and returns the last count it acked.
    static func runAndKill(writingTo url: URL, after count: Int) async throws -> Int {
        let process = Process()
        process.executableURL = try writer()
        process.arguments = [url.path, "100000"]
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        var killed = false
        defer {
            if !killed { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        var waited = Duration.zero
        // Polled through the ledger itself: every read must decode, even while the child renames files into place.
        while try await FileSpendLedger(url: url).spend(model: "m", month: month) < Double(count) * 0.01 - 1e-9 {
            guard process.isRunning else {
                let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                Issue.record("hybrid-ledger-stress exited early with status \(process.terminationStatus): \(stderr)")
                return 0
            }
            try await Task.sleep(for: .milliseconds(5))
            waited += .milliseconds(5)
            // A deadlock guard, not a performance assertion: a few dozen small writes take well under a second.
            if waited > .seconds(120) { Issue.record("the writer made too few writes in 120 s"); break }
        }
        kill(process.processIdentifier, SIGKILL)
        killed = true
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        return lines.compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }.max() ?? 0
    }
}
