import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
@testable import HybridVirtualTime
import Synchronization

/// The router tests' clock: virtual time that moves only when a scripted model's delay advances it, a deadline
/// hands a hanging call to the router's timer, or a test jumps ahead (cooldowns, cache expiry, the billing month).
/// No router test sleeps.
final class TestClock: Sendable {
    let virtual = VirtualClock(date: Date())

    func advance(_ duration: Duration) {
        virtual.advance(to: virtual.now + duration)
    }

    var now: @Sendable () -> ContinuousClock.Instant {
        { self.virtual.now }
    }

    var routerClock: RouterClock { virtual.routerClock }
}

/// Collects incidents the router raises.
final class IncidentLog: Sendable {
    private let items = Mutex<[RouterIncident]>([])
    var incidents: [RouterIncident] { items.withLock { $0 } }
    func append(_ incident: RouterIncident) { items.withLock { $0.append(incident) } }
    var handler: @Sendable (RouterIncident) -> Void { { incident in self.append(incident) } }
}

enum Fixtures {
    static let feature = "summarize"

    static func modelConfig(
        tier: ModelTier = .onDevice, window: Int = 4096, pricing: ModelPricing = .free
    ) -> ModelConfig {
        ModelConfig(
            kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "m", tier: tier, pricing: pricing,
            contextWindow: window, capabilities: .init(structuredOutput: false, streaming: true))
    }

    /// A document with one feature, `summarize`, whose variants are `plain` (default) and `bullets`.
    static func document(
        version: Int = 1,
        models: [String: ModelConfig],
        priority: [String],
        privacy: PrivacyClass = .open,
        deadlineMs: Int? = nil,
        budget: Double? = nil,
        maxOutputTokens: Int? = 64,
        plainTemplate: String = "Summarize: {{input}}",
        rollout: RolloutConfig? = nil
    ) -> HybridConfigDocument {
        let feature = FeatureConfig(
            instructions: "You write short summaries.",
            variants: [
                "plain": PromptVariant(template: plainTemplate),
                "bullets": PromptVariant(instructions: "You write bullet points.", template: "Bullets: {{input}}"),
            ],
            defaultVariant: "plain",
            options: FeatureGenerationOptions(temperature: 0, maxOutputTokens: maxOutputTokens),
            priority: priority, deadlineMs: deadlineMs, privacy: privacy, monthlyBudgetUSD: budget)
        var document = HybridConfigDocument(version: version, models: models, features: [Fixtures.feature: feature])
        document.rollouts = rollout.map { [Fixtures.feature: $0] } ?? [:]
        return document
    }

    /// A router over fake models: each model's config is derived from the fake (tier, window) unless given.
    static func router(
        _ models: [ScriptedLanguageModel],
        priority: [String]? = nil,
        configs: [String: ModelConfig] = [:],
        privacy: PrivacyClass = .open,
        deadlineMs: Int? = nil,
        budget: Double? = nil,
        installId: String = "install-1",
        policy: RouterDefaults = RouterDefaults(),
        cache: (any RouterCache)? = nil,
        ledger: (any SpendLedger)? = nil,
        clock: TestClock = TestClock(),
        incidents: IncidentLog = IncidentLog(),
        routing: RoutingConfig? = nil,
        eventSink: (any RouteEventSink)? = nil
    ) throws -> Router {
        var modelConfigs: [String: ModelConfig] = [:]
        for m in models {
            m.run(on: clock.virtual)
            modelConfigs[m.id] = configs[m.id] ?? modelConfig(tier: m.tier, window: m.capabilities.contextWindow)
        }
        var doc = document(
            models: modelConfigs, priority: priority ?? models.map(\.id), privacy: privacy, deadlineMs: deadlineMs,
            budget: budget)
        doc.features[feature]?.routing = routing
        // Unvalidated on purpose: these tests drive the walk's defensive paths (unknown models, tiers beyond the
        // privacy class) with documents validation would refuse.
        return Router(
            unvalidated: .fixed(doc), models: .models(Dictionary(uniqueKeysWithValues: models.map { ($0.id, $0 as any LanguageModel) })),
            installId: installId, spendLedger: ledger, cache: cache, clock: clock.routerClock, policy: policy,
            eventSink: eventSink, onIncident: incidents.handler)
    }

    static let input = ["input": "The quick brown fox jumps over the lazy dog near the river bank."]
}
