import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridReport
import HybridStore
import Testing

@Suite struct RecommenderTests {
    /// 20 cases. local: free and fast, breaks a constraint on 8; premium: $2/1k, always adherent, 500 ms;
    /// budget: $0.5/1k, always adherent, 800 ms, lower quality.
    static let arms = [
        ArmSpec(model: "local", tier: .onDevice, adherent: { $0 < 12 }, latencyMs: { _ in 200 }, costUSD: 0,
                scores: ["token_f1": { _ in 0.9 }]),
        ArmSpec(model: "premium", tier: .thirdParty, latencyMs: { _ in 500 }, costUSD: 0.002,
                scores: ["token_f1": { $0.isMultiple(of: 2) ? 0.88 : 0.86 }]),
        ArmSpec(model: "budget", tier: .privateCloud, latencyMs: { _ in 800 }, costUSD: 0.0005,
                scores: ["token_f1": { _ in 0.5 }]),
    ]
    static let models: [(id: String, tier: ModelTier, price: Double)] = [
        ("local", .onDevice, 0), ("premium", .thirdParty, 2), ("budget", .privateCloud, 0.5),
    ]

    private func recommend(_ policy: RecommendationPolicy, priority: [String] = ["local", "premium", "budget"]) async throws
        -> (Recommendation, HybridConfigDocument)
    {
        let store = try await StoredRunFixture.store(cases: 20, arms: Self.arms)
        let simulator = try await RouteSimulator.load(from: store, run: "run-1")
        let base = try StoredRunFixture.config(models: Self.models, priority: priority)
        let recommendation = try Recommender(policy: policy).recommend(
            document: base, simulators: [simulator], now: Date(timeIntervalSince1970: 1_700_000_000))
        return (recommendation, base)
    }

    private func policy(_ feature: RecommendationPolicy.FeaturePolicy) -> RecommendationPolicy {
        RecommendationPolicy(features: ["summarize": feature])
    }

    @Test func picksTheCheapestOrderMeetingTheFloorsAndWritesVersionPlusOne() async throws {
        let (recommendation, base) = try await recommend(policy(.init(minAdherenceLower: 0.8)))
        let decision = try #require(recommendation.features.first)
        #expect(decision.decision == .change)
        // local alone breaks constraints (12/20); budget is the cheapest always-adherent model. Equal cost and p95
        // go to the longer order, which keeps fallbacks.
        #expect(decision.chosen?.order == ["budget", "local", "premium"])
        #expect(decision.candidatesSimulated == 15)
        let document = recommendation.document
        #expect(document.version == base.version + 1)
        #expect(document.features["summarize"]?.priority == ["budget", "local", "premium"])
        #expect(document.provenance?.evalRun == "run-1")
        #expect(document.provenance?.producedBy == "hybrid recommend")
        let description = try #require(document.description)
        #expect(description.contains("run-1") && description.contains("n = 20") && description.contains("Wilson"))
        // The new document is a valid config, and the diff names what changed.
        let validated = try ConfigValidator.load(document.encodedJSON())
        #expect(validated.document.version == base.version + 1)
        #expect(recommendation.changes.map(\.path).contains("features.summarize.priority"))
        #expect(recommendation.diff.contains("local, premium, budget → budget, local, premium"))
    }

    @Test func modelsTheRunCouldNotMeasureStayBehindTheRecommendedRouteAsFallbacks() async throws {
        let store = try await StoredRunFixture.store(cases: 20, arms: Self.arms)
        let simulator = try await RouteSimulator.load(from: store, run: "run-1")
        let base = try StoredRunFixture.config(
            models: Self.models + [("cloud-unmeasured", .thirdParty, 5)], priority: ["local", "cloud-unmeasured", "premium"])
        let recommendation = try Recommender(policy: policy(.init(minAdherenceLower: 0.8))).recommend(
            document: base, simulators: [simulator], now: Date(timeIntervalSince1970: 1_700_000_000))
        let decision = try #require(recommendation.features.first)
        #expect(decision.decision == .change)
        let chosen = try #require(decision.chosen?.order)
        #expect(!chosen.contains("cloud-unmeasured"))
        #expect(recommendation.document.features["summarize"]?.priority == chosen + ["cloud-unmeasured"])
    }

    @Test func aLatencySLOExcludesTheSlowCheapModel() async throws {
        let (recommendation, _) = try await recommend(policy(.init(minAdherenceLower: 0.8, p95LatencyMs: 600)))
        let decision = try #require(recommendation.features.first)
        #expect(decision.chosen?.order.first == "premium")
        #expect(decision.chosen?.checks.contains { $0.name == "p95 latency" && $0.passed } == true)
    }

    @Test func theQualityMarginIsJudgedAgainstTheCurrentRoute() async throws {
        let floor = RecommendationPolicy.QualityFloor(scorer: "token_f1", value: 0.1)
        let (recommendation, _) = try await recommend(policy(.init(minAdherenceLower: 0.8, maxQualityDrop: floor)))
        let decision = try #require(recommendation.features.first)
        // Against the current route (local, 0.9): budget loses 0.4, beyond the margin, so its better adherence is
        // no improvement; premium loses 0.03 with a tight interval and adheres on 8 more cases: chosen.
        #expect(decision.chosen?.order.first == "premium")
        #expect(decision.evidence.first?.contains("better adherence") == true, "\(decision.evidence)")
        let drop = try #require(decision.chosen?.qualityDrop)
        #expect(abs(drop.mean - 0.03) < 1e-9)
        #expect(try #require(drop.upper) <= 0.1)
    }

    @Test func nothingQualifyingKeepsTheCurrentOrderAndSaysWhichFloorFailed() async throws {
        let (recommendation, base) = try await recommend(policy(.init(minAdherenceLower: 0.8, privacy: .sensitive)))
        let decision = try #require(recommendation.features.first)
        #expect(decision.decision == .keepNothingQualifies)
        #expect(recommendation.document.features["summarize"]?.priority == base.features["summarize"]?.priority)
        #expect(!recommendation.changesRouting)
        let closest = try #require(decision.closest)
        #expect(closest.order == ["local"])
        #expect(closest.failedChecks.map(\.name) == ["adherence"])
        #expect(decision.reason.contains("adherence FAILS"))
        #expect(decision.notes.contains { $0.contains("premium") && $0.contains("privacy") })
        #expect(recommendation.document.description?.contains("closest fails adherence") == true)
    }

    @Test func theCurrentRouteIsKeptWhenItIsAmongTheCheapest() async throws {
        let (recommendation, _) = try await recommend(policy(.init(minAdherenceLower: 0.8)), priority: ["budget", "premium"])
        let decision = try #require(recommendation.features.first)
        // premium is faster, but it costs four times as much: a trade-off, not an improvement.
        #expect(decision.decision == .keepNoEvidence)
        #expect(decision.evidence.first?.hasPrefix("keep: no candidate shown better") == true, "\(decision.evidence)")
        #expect(decision.chosen?.isCurrent == true)
        #expect(recommendation.diff.contains("features.summarize.priority") == false)
    }

    /// An offline A/A: two prompt variants on one model whose latency per case is drawn from one distribution. The
    /// variant with the lower p95 by chance must not displace the current route; over 200 runs, a change is made in at
    /// most 6 %.
    @Test func anAAOfTwoVariantsKeepsTheCurrentRoute() async throws {
        let runs = 200
        var changes = 0
        for run in 0..<runs {
            let seed = UInt64(run)
            func latency(_ variant: UInt64) -> @Sendable (Int) -> Double {
                { index in
                    var rng = SplitMix64(seed: seed &* 1_000_003 &+ variant &* 7_919 &+ UInt64(index))
                    return 300 + 400 * Double(rng.next() >> 11) / Double(1 << 53)
                }
            }
            let arms = [
                ArmSpec(model: "local", variant: "a", tier: .onDevice, latencyMs: latency(1), costUSD: 0),
                ArmSpec(model: "local", variant: "b", tier: .onDevice, latencyMs: latency(2), costUSD: 0),
            ]
            let store = try await StoredRunFixture.store(cases: 30, arms: arms)
            let simulator = try await RouteSimulator.load(from: store, run: "run-1")
            let base = try StoredRunFixture.config(models: [("local", .onDevice, 0)], priority: ["local"], variants: ["a", "b"])
            let recommendation = try Recommender(policy: policy(.init(minAdherenceLower: 0.8))).recommend(
                document: base, simulators: [simulator])
            if recommendation.changesRouting { changes += 1 }
        }
        print("offline A/A through recommend: \(changes) of \(runs) runs changed the route")
        #expect(Double(changes) / Double(runs) <= 0.06, "\(changes) of \(runs) A/A runs changed the route")
    }

    @Test func policyFilesDecodeAndRejectUnknownKeys() throws {
        let json = """
            {"fallbackOn": ["error", "timeout:3s"], "defaults": {"minAdherenceLower": 0.9},
             "features": {"summarize": {"maxQualityDrop": {"scorer": "rouge_l", "value": 0.02}, "p95LatencyMs": 900}}}
            """
        let policy = try RecommendationPolicy.decode(Data(json.utf8))
        let config = try StoredRunFixture.config(models: Self.models, priority: ["local"])
        let floors = policy.floors(for: "summarize", config: config.features["summarize"]!)
        #expect(floors.minAdherenceLower == 0.9)
        #expect(floors.maxQualityDrop?.scorer == "rouge_l")
        #expect(floors.p95LatencyMs == 900)
        #expect(floors.fallback == [.error, .timeout(milliseconds: 3000)])
        #expect(throws: RecommendError.self) {
            try RecommendationPolicy.decode(Data(#"{"defaults": {"minAdherence": 0.9}}"#.utf8))
        }
    }
}
