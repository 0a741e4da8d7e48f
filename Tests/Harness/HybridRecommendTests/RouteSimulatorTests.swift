import HybridCore
@testable import HybridRecommend
@testable import HybridRouter
import HybridStore
import Testing

@Suite struct RouteSimulatorTests {
    /// A passes adherence on 8 of 10 cases (100 ms, free); B passes all (300 ms, $0.001 per request).
    static let local = ArmSpec(model: "local", tier: .onDevice, adherent: { $0 < 8 }, latencyMs: { _ in 100 }, costUSD: 0,
                               scores: ["token_f1": { $0 < 8 ? 0.8 : 0.2 }])
    static let cloud = ArmSpec(model: "cloud", tier: .thirdParty, latencyMs: { _ in 300 }, costUSD: 0.001,
                               scores: ["token_f1": { _ in 0.6 }])

    private func simulator(_ arms: [ArmSpec], cases: Int = 10) async throws -> RouteSimulator {
        let store = try await StoredRunFixture.store(cases: cases, arms: arms)
        return try await RouteSimulator.load(from: store, run: "run-1")
    }

    @Test func adherenceFallbackServesEightyTwentyAndChargesEveryAttempt() async throws {
        let simulator = try await simulator([Self.local, Self.cloud])
        let result = try simulator.simulate(ReplayPolicy(order: ["local", "cloud"], fallback: [.adherence]))
        #expect(result.count == 10)
        #expect(result.share(servedBy: "local")?.successes == 8)
        #expect(result.share(servedBy: "cloud")?.successes == 2)
        #expect(result.servedByTier.map(\.label) == ["on-device", "third-party"])
        #expect(result.servedByTier.map(\.share.proportion) == [0.8, 0.2])
        #expect(result.noArmPassed.successes == 0)
        #expect(result.adherence.successes == 10)
        // 8 requests took A's 100 ms; 2 took A + B = 400 ms.
        #expect(result.latency.p50 == 100)
        #expect(result.latency.p95 == 400)
        #expect(abs(result.latency.mean.mean - 160) < 1e-9)
        // Only the two fallbacks paid: 2 × $0.001 over 10 requests = $0.2 per 1,000.
        #expect(abs(result.costPer1k.mean - 0.2) < 1e-12)
        #expect(result.costPer1k.lower != nil && result.costPer1k.upper != nil)
        #expect(abs(result.meanAttempts - 1.2) < 1e-12)
        // Quality is what was served: 8 × 0.8 from A, 2 × 0.6 from B.
        let quality = try #require(result.quality("token_f1"))
        #expect(abs(quality.estimate.mean - 0.76) < 1e-12)
        let lower = try #require(quality.estimate.lower), upper = try #require(quality.estimate.upper)
        #expect(lower <= 0.76 && 0.76 <= upper)
    }

    @Test func withoutAdherenceFallbackTheFirstArmServesEverythingItAnswers() async throws {
        let simulator = try await simulator([Self.local, Self.cloud])
        let result = try simulator.simulate(ReplayPolicy(order: ["local", "cloud"]))
        #expect(result.share(servedBy: "local")?.successes == 10)
        #expect(result.adherence.successes == 8)
        #expect(result.costPer1k.mean == 0)
        #expect(result.latency.p95 == 100)
    }

    @Test("the simulator has no rule of its own: each case is the router's RoutingWalk, whose records it returns")
    func simulatorDrivesTheRoutersWalk() async throws {
        var slow = Self.local
        slow.latencyMs = { _ in 5000 }
        let simulator = try await simulator([slow, Self.cloud])
        let policy = ReplayPolicy(order: ["local", "cloud"], fallback: try FallbackCondition.parseList("timeout:2s"))
        let request = SimulatedRequest(policy: policy, table: simulator.table, contextWindows: [:])
        let arms = try simulator.resolve(policy).arms
        let walk = try #require(request.walk(simulator.table.outcomes[0], arms: arms))
        #expect(walk.records.map(\.modelID) == ["local", "cloud"])
        #expect(walk.records.map(\.outcome) == [.timedOut(after: .seconds(2)), .served])
        #expect(walk.records[1].startedAt == .seconds(2))
    }

    @Test func timeoutChargesTheThresholdAndFallsBack() async throws {
        var slow = Self.local
        slow.adherent = { _ in true }
        slow.latencyMs = { $0 < 7 ? 100 : 5000 }
        let simulator = try await simulator([slow, Self.cloud])
        let result = try simulator.simulate(ReplayPolicy(order: ["local", "cloud"], fallback: try FallbackCondition.parseList("timeout:2s")))
        #expect(result.timedOutAttempts == 3)
        #expect(result.share(servedBy: "cloud")?.successes == 3)
        // The three slow cases are charged 2,000 ms (not 5,000) plus B's 300 ms.
        #expect(result.latency.mean.mean == (7 * 100 + 3 * 2300) / 10)
        #expect(result.latency.p95 == 2300)
        // The cut attempt served nothing: its quality does not count, B's does.
        #expect(abs(result.quality("token_f1")!.estimate.mean - (7 * 0.8 + 3 * 0.6) / 10) < 1e-12)
    }

    @Test func errorsAlwaysFallBackAndNoArmPassedIsCounted() async throws {
        var flaky = Self.local
        flaky.failed = { $0 == 0 }
        var strict = Self.cloud
        strict.adherent = { $0 != 9 }
        let simulator = try await simulator([flaky, strict])
        let result = try simulator.simulate(ReplayPolicy(order: ["local", "cloud"], fallback: [.adherence]))
        #expect(result.share(servedBy: "cloud")?.successes == 2)  // case 0 (A failed) and case 8
        #expect(result.noArmPassed.successes == 1)  // case 9: both break a constraint
        #expect(result.adherence.successes == 9)
        // Case 9 gets the answer failing the fewest checks, as the router returns it: a tie, so the earlier arm's
        // (A's, 0.2); cases 0 and 8 get B's 0.6 as served.
        let expected = (7 * 0.8 + 0.6 + 0.6 + 0.2) / 10
        #expect(abs(result.quality("token_f1")!.estimate.mean - expected) < 1e-12)
    }

    @Test func qualityConditionFallsBackBelowTheFloor() async throws {
        let simulator = try await simulator([Self.local, Self.cloud])
        let policy = ReplayPolicy(order: ["local", "cloud"], fallback: [try FallbackCondition.parse("quality:token_f1>=0.5")])
        let result = try simulator.simulate(policy)
        #expect(result.share(servedBy: "cloud")?.successes == 2)
        #expect(policy.fallback.map(\.description) == ["error", "quality:token_f1>=0.5"])
    }

    @Test func armsMayBeNamedWithVariantsAndMissingOnesAreRefused() async throws {
        var bullet = Self.cloud
        bullet.variant = "bullet"
        let simulator = try await simulator([Self.local, Self.cloud, bullet])
        #expect(throws: RecommendError.ambiguousVariant(variants: ["bullet", "concise"])) {
            try simulator.simulate(ReplayPolicy(order: ["local"]))
        }
        let mixed = try simulator.simulate(ReplayPolicy(order: ["concise@local", "bullet@cloud"], fallback: [.adherence]))
        #expect(mixed.arms.map(\.id) == ["concise@local", "bullet@cloud"])
        #expect(throws: RecommendError.self) { try simulator.simulate(ReplayPolicy(order: ["nope"], variant: "concise")) }
    }

    @Test func unknownRunAndBadConditionsAreTypedErrors() async throws {
        let store = try await StoredRunFixture.store(cases: 2, arms: [Self.local])
        await #expect(throws: RecommendError.runNotFound(runID: "missing")) {
            _ = try await RouteSimulator.load(from: store, run: "missing")
        }
        #expect(throws: RecommendError.self) { try FallbackCondition.parseList("adherence,timeout:soon") }
        #expect(throws: RecommendError.self) { try FallbackCondition.parse("quality:token_f1") }
        #expect(try FallbackCondition.parse("timeout:1500ms") == .timeout(milliseconds: 1500))
    }
}

/// The simulator and the router start from the same defaults (one place: `RouterDefaults`).
@Suite struct SimulatorDefaultsTests {
    @Test func theSimulatorStopsWhereTheRouterStopsAndRestsAsLong() {
        let router = RoutingWalk.Rules(routing: nil, deadlineMs: nil, privacy: nil, defaults: RouterDefaults())
        let stops = Set(router.actions.filter { $0.value == .stop }.keys.map(\.rawValue))
        #expect(ReplayPolicy(order: ["a"]).stopOn == stops)
        #expect(stops == ["cancelled", "refusal"])
        let rules = RoutingWalk.Rules()
        #expect(rules.quotaCooldown == router.quotaCooldown && rules.rateLimitCooldown == router.rateLimitCooldown)
        #expect(rules.quotaCooldown == .seconds(900) && rules.rateLimitCooldown == .seconds(30))
        #expect(rules.whenChecksFail == router.whenChecksFail && router.streaming == .progressive)
    }
}
