import HybridConfig
import HybridCore
@testable import HybridRecommend
import HybridReport
@testable import HybridRouter
import Testing

/// Routing settings are resolved once: the router, the simulator's replay of a config and a policy written from
/// `simulate`'s flags must reach the same `RoutingWalk.Rules`, for any config and any install's labels.
@Suite("One routing resolver")
struct RoutingResolverPropertyTests {
    static let checks = ["schema", "constraints", "max_words"]
    static let kinds = ["server_error", "rate_limited", "refusal", "timeout", "cancelled", "authentication", "unavailable"]

    /// A random routing block; nil about a third of the time.
    static func routing(_ rng: inout SplitMix64) -> RoutingConfig? {
        guard Int.random(in: 0..<3, using: &rng) > 0 else { return nil }
        var block = RoutingConfig()
        if Bool.random(using: &rng) {
            block.onError = Dictionary(uniqueKeysWithValues: kinds.filter { _ in Bool.random(using: &rng) }.map {
                ($0, Bool.random(using: &rng) ? RoutingConfig.ErrorAction.stop : .fallback)
            })
        }
        if Bool.random(using: &rng) { block.fallbackOnOutput = checks.filter { _ in Bool.random(using: &rng) } }
        if Bool.random(using: &rng) { block.attemptTimeoutMs = [400, 1500, 4000].randomElement(using: &rng)! }
        if Bool.random(using: &rng) { block.rateLimitCooldownMs = [1000, 60_000].randomElement(using: &rng)! }
        if Bool.random(using: &rng) { block.quotaCooldownMs = [5000, 3_600_000].randomElement(using: &rng)! }
        if Bool.random(using: &rng) { block.whenChecksFail = Bool.random(using: &rng) ? .returnBest : .throwError }
        if Bool.random(using: &rng) { block.streaming = Bool.random(using: &rng) ? .progressive : .buffered }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            block.hedge = HedgeConfig(
                afterMs: [300, 1200].randomElement(using: &rng)!, tiers: Bool.random(using: &rng) ? [.privateCloud] : nil,
                maxExtraCostPerRequestUSD: Bool.random(using: &rng) ? 0.001 : nil)
        }
        return block
    }

    /// The summarize feature with random routing at both levels, deadline and privacy, and two conditions whose
    /// overrides may replace the routing block and the deadline.
    static func document(_ rng: inout SplitMix64) throws -> HybridConfigDocument {
        var document = try RouterCheckPropertyTests.document(models: RouterCheckPropertyTests.models)
        document.routing = routing(&rng)
        document.conditions = [
            ConfigCondition(name: "slow", labels: ["deviceClass": LabelTest(equals: "slow")]),
            ConfigCondition(name: "beta", labels: ["channel": LabelTest(oneOf: ["beta", "dev"])]),
        ]
        var feature = document.features["summarize"]!
        feature.routing = routing(&rng)
        feature.deadlineMs = Bool.random(using: &rng) ? [1000, 8000].randomElement(using: &rng)! : nil
        feature.privacy = [PrivacyClass.standard, .open].randomElement(using: &rng)!  // the models are private-cloud
        var overrides: [String: FeatureOverride] = [:]
        for name in ["slow", "beta"] where Bool.random(using: &rng) {
            overrides[name] = FeatureOverride(routing: routing(&rng), deadlineMs: Bool.random(using: &rng) ? 2500 : nil)
        }
        feature.overrides = overrides.isEmpty ? nil : overrides
        document.features["summarize"] = feature
        return document
    }

    static func labels(_ rng: inout SplitMix64) -> [String: String] {
        var labels: [String: String] = [:]
        if Bool.random(using: &rng) { labels["deviceClass"] = Bool.random(using: &rng) ? "slow" : "fast" }
        if Bool.random(using: &rng) { labels["channel"] = ["beta", "dev", "stable"].randomElement(using: &rng)! }
        return labels
    }

    /// The rules the router plans for a plain request from an install with `labels`.
    static func routerRules(_ document: HybridConfigDocument, labels: [String: String]) async throws -> RoutingWalk.Rules {
        let router = try Router(config: .fixed(document), models: .models([:]), installId: "install-1", eventLabels: labels)
        var rules = try await router.plannedRules(feature: "summarize", input: ["input": "a short input"])
        rules.checksAvailability = false  // the simulator has no availability probe; everything else must match
        return rules
    }

    @Test("for random configs and labels, the router's rules and the router check's simulated rules are equal")
    func routerAndSimulatorAgree() async throws {
        var overridden = 0
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            let document = try Self.document(&rng)
            let labels = Self.labels(&rng)
            let check = RouterCheck(document: document, labels: labels, installId: "install-1")
            let simulated = SimulatedRequest(
                policy: try check.simulatedFeature("summarize").policy, table: RunOutcomeTable(runID: "run", feature: "summarize", arms: [], scorers: [], cases: [], outcomes: []), contextWindows: [:]
            ).rules
            let router = try await Self.routerRules(document, labels: labels)
            #expect(router == simulated, "seed \(seed), labels \(labels)")
            let resolved = RoutingWalk.Rules.resolve(
                document: document, feature: "summarize", labels: TargetLabels(labels), installId: "install-1", defaults: RouterDefaults())
            #expect(resolved.map { var r = $0; r.checksAvailability = false; return r } == router, "seed \(seed)")
            if document.resolve(feature: "summarize", labels: labels, installId: "install-1")?.condition != nil { overridden += 1 }
        }
        #expect(overridden > 50, "the conditions' overrides were exercised")
    }

    @Test("a policy written from simulate's flags into the config makes the router use the policy's rules")
    func writtenPolicyIsWhatTheRouterDoes() async throws {
        for seed in UInt64(1)...200 {
            var rng = SplitMix64(seed: seed)
            let base = try Self.document(&rng)
            let policy = RouterCheckPropertyTests.policy(&rng)
            var document = try RouterCheck.applying(policy, feature: "summarize", to: base)
            document.features["summarize"]?.overrides = nil
            let router = try await Self.routerRules(document, labels: [:])
            let expected = policy.rules
            #expect(router.actions == expected.actions, "seed \(seed), \(policy)")
            #expect(router.attemptTimeout == expected.attemptTimeout, "seed \(seed), \(policy)")
            #expect(router.whenChecksFail == expected.whenChecksFail, "seed \(seed), \(policy)")
            // Checks the feature does not produce are dropped when written; they could never fail.
            let produced = OutputChecks(schema: document.features["summarize"]!.outputSchema, constraints: document.features["summarize"]!.constraints)
            for name in produced.resultNamesProduced {
                #expect(router.outputFallback.selects(name) == expected.outputFallback.selects(name), "seed \(seed), \(name), \(policy)")
            }
        }
    }
}
