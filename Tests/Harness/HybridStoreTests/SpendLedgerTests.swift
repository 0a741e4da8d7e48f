import Foundation
import HybridTestSupport
import HybridTesting
import Testing
@testable import HybridStore
import HybridProjectTestSupport

/// The `SpendLedger` contract on every backend (`StoreBackend`), and `BillingMonth`.
@Suite("SpendLedger conformance", .postgresServer)
struct SpendLedgerTests {
    let june = BillingMonth(year: 2025, month: 6)!
    let july = BillingMonth(year: 2025, month: 7)!

    @Test("spend accumulates per model and month, and survives reopening", arguments: StoreBackend.allCases)
    func accumulatesPerMonth(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            do {
                let ledger = opened.ledger
                #expect(try await ledger.spend(model: "gpt-4o-mini", month: june) == 0)
                #expect(try await ledger.addSpend(model: "gpt-4o-mini", month: june, usd: 0.5) == 0.5)
                #expect(try await ledger.addSpend(model: "gpt-4o-mini", month: june, usd: 0.25) == 0.75)
                #expect(try await ledger.addSpend(model: "gpt-4o-mini", month: july, usd: 2) == 2)
                #expect(try await ledger.addSpend(model: "claude-haiku", month: june, usd: 1.5) == 1.5)
            }
            let ledger = try await opened.reopenLedger()
            #expect(try await ledger.spend(model: "gpt-4o-mini", month: june) == 0.75)
            #expect(try await ledger.spend(model: "gpt-4o-mini", month: july) == 2)
            #expect(try await ledger.spend(model: "claude-haiku", month: july) == 0)
            let records = try await ledger.spendRecords(month: june)
            #expect(records.map(\.modelID) == ["claude-haiku", "gpt-4o-mini"])
            #expect(records.map(\.usd) == [1.5, 0.75])
            #expect(records.map(\.requestCount) == [1, 2])
            #expect(records.allSatisfy { $0.month == june })
        }
    }

    @Test("concurrent adds never lose an increment", arguments: StoreBackend.allCases)
    func concurrentAdds(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            let ledger = opened.ledger
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask { try await ledger.addSpend(model: "m", month: june, usd: 0.25) }
                }
                try await group.waitForAll()
            }
            #expect(try await ledger.spend(model: "m", month: june) == 10)
            #expect(try await ledger.spendRecords(month: june).first?.requestCount == 40)
        }
    }

    @Test("negative and non-finite amounts are refused", arguments: StoreBackend.allCases)
    func invalidAmounts(_ backend: StoreBackend) async throws {
        try await backend.withStores { (opened) async throws in
            let ledger = opened.ledger
            for amount in [-0.01, .nan, .infinity] {
                let error = await #expect(throws: SpendLedgerError.self) { try await ledger.addSpend(model: "m", month: june, usd: amount) }
                guard error?.code == .invalidAmount else {
                    Issue.record("expected invalidAmount for \(amount), got \(String(describing: error))")
                    continue
                }
            }
            #expect(try await ledger.spendRecords(month: june).isEmpty)
        }
    }

    @Test("billing months parse, print, order and follow UTC")
    func billingMonth() throws {
        #expect(BillingMonth("2025-06") == june)
        #expect(june.description == "2025-06")
        #expect(BillingMonth(year: 987, month: 12)?.description == "0987-12")
        #expect(BillingMonth("2025-13") == nil)
        #expect(BillingMonth("2025-6") == nil)
        #expect(BillingMonth("June") == nil)
        #expect(BillingMonth(year: 2025, month: 0) == nil)
        #expect(june < july)
        #expect(BillingMonth(year: 2024, month: 12)! < june)
        // 2025-06-30T23:30:00Z is still June in UTC, whatever the machine's time zone.
        #expect(BillingMonth(containing: Date(timeIntervalSince1970: 1_751_326_200)) == june)
        #expect(BillingMonth(containing: Date(timeIntervalSince1970: 1_751_328_000)) == july)
    }
}
