import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridReport
import HybridStore
import Testing

/// Nothing decides from a run that measured nothing: the recommender refuses, the router check has nothing to
/// check, a gate fails, and the report says first which model answered 0 of N and why.
@Suite struct EmptyRunTests {
    static let models: [(id: String, tier: ModelTier, price: Double)] = [("local", .onDevice, 0), ("cloud", .thirdParty, 2)]
    static let dead = "local: unavailable: not running: llama-server was killed by SIGILL (illegal instruction)\nremedy: rebuild"

    /// 10 cases; `local` fails every one with `dead`'s message; `cloud` answers every one unless `cloudFails`.
    private func store(cloudFails: Bool) async throws -> SQLiteResultStore {
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        try await StoredRunFixture.add(to: store, runID: "run-1", cases: 10, arms: [
            ArmSpec(model: "cloud", tier: .thirdParty, failed: { _ in cloudFails }, costUSD: 0.001),
        ])
        var records: [ResultRecord] = []
        for i in 0..<10 {
            records.append(ResultRecord(
                key: ResultKey(runID: "run-1", caseID: String(format: "c%02d", i), armID: "concise@local", repeatIndex: 0),
                feature: "summarize", promptVariant: "concise", modelID: "local", tier: .onDevice,
                renderedPromptHash: "p\(i)", rawOutput: nil, usage: nil, timings: ResultTimings(totalMs: 0),
                error: ResultError(kind: "unavailable", message: Self.dead)))
        }
        _ = try await store.insertResults(records)
        return store
    }

    private func recommend(_ store: SQLiteResultStore) async throws -> Recommendation {
        let simulator = try await RouteSimulator.load(from: store, run: "run-1")
        let base = try StoredRunFixture.config(models: Self.models, priority: ["local", "cloud"])
        return try Recommender().recommend(document: base, simulators: [simulator])
    }

    @Test func aRunWhereNoArmAnsweredIsRefused() async throws {
        let store = try await store(cloudFails: true)
        await #expect(throws: RecommendError.nothingAnswered(runID: "run-1", feature: "summarize")) {
            _ = try await recommend(store)
        }
    }

    @Test func aRunWhereTheRouteInForceAnsweredNothingIsRefusedEvenWhenAnotherModelAnswered() async throws {
        let store = try await store(cloudFails: false)
        let base = try StoredRunFixture.config(models: Self.models, priority: ["local"])
        let simulator = try await RouteSimulator.load(from: store, run: "run-1")
        #expect(throws: RecommendError.currentRouteUnanswered(runID: "run-1", feature: "summarize", models: ["local"])) {
            _ = try Recommender().recommend(document: base, simulators: [simulator])
        }
        // A route in force with one answering model is evidence enough to compare with.
        _ = try await recommend(store)
    }

    @Test func theReportNamesTheSilentModelFirstWithItsWholeReasonAndAGateFails() async throws {
        let store = try await store(cloudFails: false)
        let report = try await ReportBuilder(options: ReportOptions()).build(store: store, runID: "run-1")
        let silent = try #require(report.unansweredModels.first)
        #expect(report.unansweredModels.count == 1)
        #expect(silent.modelID == "local" && silent.results == 10)
        // The whole reason, every line of it (the runner's "local: unavailable: " prefix aside).
        let reason = String(Self.dead.dropFirst("local: unavailable: ".count))
        #expect(silent.reasons == [reason])
        let markdown = MarkdownReportRenderer().render(report)
        let firstFigure = try #require(markdown.range(of: "n = ")?.lowerBound ?? markdown.range(of: "|")?.lowerBound)
        let named = try #require(markdown.range(of: "`local` answered 0 of 10 results"))
        #expect(named.lowerBound < firstFigure)
        #expect(markdown.contains(reason))

        let nothing = try await self.store(cloudFails: true)
        let empty = try await ReportBuilder(options: ReportOptions()).build(store: nothing, runID: "run-1")
        let gates = GateEvaluator.evaluate(
            report: empty, gates: GateSpec(features: ["*": ["*": GateThresholds(minAdherenceLower: 0.5)]]), baseline: nil)
        let evidence = try #require(gates.failures.first { $0.gate == "evidence" })
        #expect(evidence.message.contains("no arm answered any case"))
        #expect(evidence.message.contains("killed by SIGILL"))
        #expect(gates.exitCode != 0)
    }
}
