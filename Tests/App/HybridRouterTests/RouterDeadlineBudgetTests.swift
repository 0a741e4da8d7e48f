import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
@testable import HybridVirtualTime
import Testing

@Suite("Router: overall deadline and monthly budget")
struct RouterDeadlineBudgetTests {
    @Test("the deadline covers every fallback: the call running at the deadline is cancelled and no later model is tried")
    func deadlineAcrossFallbacks() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 502, detail: "bad gateway"), after: .milliseconds(5))])
        let b = ScriptedLanguageModel(id: "b", script: [.hang])
        let c = ScriptedLanguageModel(id: "c", script: [.reply("too late")])
        // A deadline far above a's failure time, so a loaded machine cannot make a itself miss it.
        let clock = TestClock()
        let router = try Fixtures.router([a, b, c], deadlineMs: 1500, clock: clock)
        let start = clock.virtual.now
        do {
            _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
            Issue.record("expected deadlineExceeded")
        } catch {
            let elapsed = clock.virtual.now - start
            guard error.code == .deadlineExceeded else {
                Issue.record("expected deadlineExceeded, got \(error)")
                return
            }
            let attempts = error.attempts
            #expect(error.deadline == .milliseconds(1500))
            try #require(attempts.map(\.modelID) == ["a", "b"])
            #expect(attempts[1].outcome == .cancelledAtDeadline)
            // On the virtual clock the timing is exact: a failed after 5 ms, b was cut at the deadline.
            #expect(elapsed == .milliseconds(1500))
            #expect(attempts[1].startedAt == .milliseconds(5))
            #expect(attempts[1].duration == .milliseconds(1495))
        }
        await b.waitUntil { $0.cancellations == 1 }
        #expect(c.callCount == 0)
        // The provider got the overall deadline with the request, to size its own transfer timeout.
        let sent = try #require(b.requests.first?.deadline)
        let first = try #require(a.requests.first?.deadline)
        #expect(sent == first)
    }

    @Test("a per-call deadline overrides the feature's, and an answer before it is returned")
    func perCallDeadline() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.reply("slow", after: .milliseconds(20))])
        let result = try await Fixtures.router([a], deadlineMs: 1).generate(
            feature: Fixtures.feature, input: Fixtures.input, deadline: .seconds(30))
        #expect(result.response.text == "slow")
    }

    @Test("the caller cancelling the task cancels the model call and throws .cancelled")
    func callerCancellation() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.hang])
        // No deadline: on the virtual clock a hanging call with one would be cut by the router's timer at once.
        let router = try Fixtures.router([a])
        let task = Task { try await router.generate(feature: Fixtures.feature, input: Fixtures.input) }
        await a.waitUntil { $0.calls == 1 }
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result, let routerError = error as? RouterError, routerError.code == .cancelled else {
            Issue.record("expected RouterError.cancelled, got \(result)")
            return
        }
        await a.waitUntil { $0.cancellations == 1 }
    }

    @Test("a metered model over the feature's monthly cap is skipped; spend is recorded after each success")
    func budgetCap() async throws {
        let ledger = InMemorySpendLedger()
        // $1000 per million tokens both ways: 5 + 5 tokens cost $0.01, exactly the cap.
        let pricing = ModelPricing(inputPerMillion: 1000, outputPerMillion: 1000)
        let usage = TokenUsage(promptTokens: 5, completionTokens: 5)
        let paid = ScriptedLanguageModel(id: "paid", tier: .thirdParty, whenExhausted: .reply("paid", usage: usage))
        let free = ScriptedLanguageModel(id: "free", whenExhausted: .reply("free"))
        let router = try Fixtures.router(
            [paid, free], configs: ["paid": Fixtures.modelConfig(tier: .thirdParty, pricing: pricing)], budget: 0.01,
            ledger: ledger)
        let month = BillingMonth(containing: Date())

        let first = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(first.servedBy.id == "paid")
        let spent = try await ledger.spend(model: "paid", month: month)
        #expect(abs(spent - 0.01) < 1e-12)
        #expect(try await ledger.spend(model: "free", month: month) == 0)

        let second = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(second.servedBy.id == "free")
        guard case .overBudget(let spentUSD, let capUSD)? = second.attempts[0].outcome.skipReason else {
            Issue.record("expected an over-budget skip, got \(second.attempts[0].outcome)")
            return
        }
        #expect(abs(spentUSD - 0.01) < 1e-12 && capUSD == 0.01)
        #expect(paid.callCount == 1)
        #expect(second.attempts[0].description.contains("raise monthlyBudgetUSD"))
    }

    @Test("spend from an earlier month does not count toward this month's cap")
    func budgetResetsMonthly() async throws {
        let ledger = InMemorySpendLedger()
        let lastMonth = try #require(BillingMonth(year: 2001, month: 1))
        try await ledger.addSpend(model: "paid", month: lastMonth, usd: 100)
        let paid = ScriptedLanguageModel(id: "paid", tier: .thirdParty, whenExhausted: .reply("paid"))
        let router = try Fixtures.router(
            [paid], configs: ["paid": Fixtures.modelConfig(tier: .thirdParty, pricing: ModelPricing(inputPerMillion: 1, outputPerMillion: 1))],
            budget: 5, ledger: ledger)
        #expect(try await router.generate(feature: Fixtures.feature, input: Fixtures.input).servedBy.id == "paid")
    }

    @Test("when the ledger cannot be read, metered models are skipped (not risked) and an incident is raised")
    func unreadableLedger() async throws {
        let paid = ScriptedLanguageModel(id: "paid", tier: .thirdParty, whenExhausted: .reply("paid"))
        let free = ScriptedLanguageModel(id: "free", whenExhausted: .reply("free"))
        let log = IncidentLog()
        let router = try Fixtures.router(
            [paid, free], configs: ["paid": Fixtures.modelConfig(tier: .thirdParty, pricing: ModelPricing(inputPerMillion: 1, outputPerMillion: 1))],
            budget: 5, ledger: BrokenLedger(), incidents: log)
        let result = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "free")
        guard case .budgetUnknown(let detail)? = result.attempts[0].outcome.skipReason else {
            Issue.record("expected budgetUnknown, got \(result.attempts[0].outcome)")
            return
        }
        #expect(detail.contains("disk I/O error"))
        #expect(paid.callCount == 0)
        #expect(log.incidents.count == 1)
    }
}

/// A ledger whose database is gone.
struct BrokenLedger: SpendLedger {
    private var failure: SpendLedgerError { SpendLedgerError(.unavailable, "database at /tmp/gone.sqlite: cannot read spend: disk I/O error") }
    func addSpend(model: String, month: BillingMonth, usd: Double) async throws(SpendLedgerError) -> Double { throw failure }
    func spend(model: String, month: BillingMonth) async throws(SpendLedgerError) -> Double { throw failure }
    func spendRecords(month: BillingMonth) async throws(SpendLedgerError) -> [SpendRecord] { throw failure }
}
