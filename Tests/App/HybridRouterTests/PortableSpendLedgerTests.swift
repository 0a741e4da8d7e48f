import Foundation
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Synchronization
import Testing

/// The ledgers an app uses without SQLite. The SQLite ledger's own tests are in HybridStoreTests.
@Suite("In-memory and file-backed spend ledgers")
struct PortableSpendLedgerTests {
    let june = BillingMonth(year: 2025, month: 6)!
    let july = BillingMonth(year: 2025, month: 7)!

    enum Kind: String, CaseIterable, Sendable {
        case inMemory, file
    }

    func ledger(_ kind: Kind, in directory: TemporaryDirectory) -> any SpendLedger {
        switch kind {
        case .inMemory: InMemorySpendLedger()
        case .file: FileSpendLedger(url: directory.url.appendingPathComponent("ledger/spend.json"))
        }
    }

    @Test("spend accumulates per model and month; concurrent adds lose nothing; bad amounts are refused", arguments: Kind.allCases)
    func accumulates(_ kind: Kind) async throws {
        try await withTemporaryDirectory { directory in
            let ledger = ledger(kind, in: directory)
            #expect(try await ledger.addSpend(model: "gpt-4o-mini", month: june, usd: 0.5) == 0.5)
            #expect(try await ledger.addSpend(model: "gpt-4o-mini", month: june, usd: 0.25) == 0.75)
            #expect(try await ledger.addSpend(model: "gpt-4o-mini", month: july, usd: 2) == 2)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 { group.addTask { try await ledger.addSpend(model: "claude-haiku", month: june, usd: 0.25) } }
                try await group.waitForAll()
            }
            for amount in [-0.01, .nan, .infinity] {
                await #expect(throws: SpendLedgerError.self) { try await ledger.addSpend(model: "m", month: june, usd: amount) }
            }
            let records = try await ledger.spendRecords(month: june)
            #expect(records.map(\.modelID) == ["claude-haiku", "gpt-4o-mini"])
            #expect(records.map(\.usd) == [5, 0.75])
            #expect(records.map(\.requestCount) == [20, 2])
            #expect(try await ledger.spend(model: "gpt-4o-mini", month: july) == 2)
            #expect(try await ledger.spend(model: "nobody", month: july) == 0)
        }
    }

    @Test("the file ledger survives a relaunch, and a torn write (a crash before the rename) loses nothing")
    func fileSurvivesCrash() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("spend.json")
            try await FileSpendLedger(url: url).addSpend(model: "m", month: june, usd: 1.5)
            // A writer killed mid-write leaves a truncated temporary file beside the ledger and never renamed it.
            let torn = directory.url.appendingPathComponent(AtomicFile.temporaryPrefix(for: url) + "crashed")
            let full = try Data(contentsOf: url)
            try full.prefix(full.count / 2).write(to: torn)

            // A live writer's temporary file (this process's id) is not stale: another process opening must keep it.
            let live = directory.url.appendingPathComponent(AtomicFile.temporaryPrefix(for: url) + "\(ProcessInfo.processInfo.processIdentifier)-live")
            try Data().write(to: live)

            let relaunched = FileSpendLedger(url: url)
            #expect(try await relaunched.spend(model: "m", month: june) == 1.5)
            #expect(!FileManager.default.fileExists(atPath: torn.path), "the stale temporary file is cleaned up")
            #expect(FileManager.default.fileExists(atPath: live.path), "a running writer's temporary file is left alone")
            #expect(try await relaunched.addSpend(model: "m", month: june, usd: 1) == 2.5)
            #expect(try await FileSpendLedger(url: url).spendRecords(month: june).first?.requestCount == 2)
        }
    }

    @Test("while writes run, every read of the file finds a whole ledger (the rename is atomic)")
    func readersNeverSeeATornFile() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("spend.json")
            let ledger = FileSpendLedger(url: url)
            try await ledger.addSpend(model: "m", month: june, usd: 0.01)
            // Reads counted as they happen, so the writer goes on until the reader has overlapped it for a while
            // however the two tasks are scheduled (with other suites running, 60 writes could end before one read).
            let counts = Mutex((reads: 0, torn: 0))
            let reader = Task {
                while !Task.isCancelled {
                    if let data = try? Data(contentsOf: url) {
                        let torn = (try? JSONSerialization.jsonObject(with: data)) == nil
                        counts.withLock { counts in
                            counts.reads += 1
                            if torn { counts.torn += 1 }
                        }
                    }
                    await Task.yield()
                }
            }
            var writes = 0
            while writes < 60 || (counts.withLock({ $0.reads }) < 20 && writes < 5_000) {
                try await ledger.addSpend(model: "m", month: june, usd: 0.01)
                writes += 1
            }
            reader.cancel()
            await reader.value
            let (reads, torn) = counts.withLock { ($0.reads, $0.torn) }
            #expect(reads >= 20)
            #expect(torn == 0, "\(torn) of \(reads) reads found a torn file")
            #expect(try await FileSpendLedger(url: url).spend(model: "m", month: june) > 0.6)
        }
    }

    @Test("a damaged ledger file is an error naming the file, never a silent reset to zero (which would lift budgets)")
    func damagedFileIsAnError() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("spend.json")
            try Data("{\"version\":1,\"spend\":[{\"model\":\"m\"".utf8).write(to: url)
            let error = await #expect(throws: SpendLedgerError.self) { try await FileSpendLedger(url: url).spend(model: "m", month: june) }
            #expect(error?.description.contains(url.path) == true)
        }
    }
}
