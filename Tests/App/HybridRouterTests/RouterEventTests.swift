import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridEvents
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

@Suite("Router: one RouteEvent per request to the configured sink")
struct RouterEventTests {
    static let pricing = ModelPricing(inputPerMillion: 1, outputPerMillion: 2)
    static let labels = ["appVersion": "3.2.1", "os": "iOS 18.1", "deviceClass": "phone"]

    /// A router over a failing on-device model `a` and a priced third-party model `b`, with every install in the
    /// `bullets-arm` rollout arm.
    static func router(
        _ a: ScriptedLanguageModel, _ b: ScriptedLanguageModel, sink: InMemoryEventSink, includeContent: Bool = false,
        constraints: OutputConstraints? = nil, policy: RouterDefaults = RouterDefaults()
    ) throws -> Router {
        let rollout = RolloutConfig(seed: "s1", arms: [RolloutArm(name: "bullets-arm", percentage: 100, variant: "bullets")])
        var document = Fixtures.document(
            version: 7,
            models: ["a": Fixtures.modelConfig(tier: .onDevice), "b": Fixtures.modelConfig(tier: .thirdParty, pricing: pricing)],
            priority: ["a", "b"], rollout: rollout)
        document.features[Fixtures.feature]?.events = FeatureEventsConfig(includeContent: includeContent)
        document.features[Fixtures.feature]?.constraints = constraints
        return Router(
            unvalidated: .fixed(document), models: .models(["a": a, "b": b]), installId: "install-42", policy: policy, eventSink: sink,
            eventLabels: labels, onIncident: { _ in })
    }

    @Test("a served request after a fallback reports arm, bucket, attempts, tokens, cost and labels, and no content")
    func servedAfterFallback() async throws {
        let sink = InMemoryEventSink()
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 503, detail: "busy"))])
        let b = ScriptedLanguageModel(
            id: "b", tier: .thirdParty, script: [.reply("A short summary.", usage: TokenUsage(promptTokens: 1000, completionTokens: 500))])
        let before = Date()
        let routed = try await Self.router(a, b, sink: sink).generate(feature: Fixtures.feature, input: Fixtures.input)
        let event = try #require(sink.events.first)
        #expect(sink.events.count == 1)
        #expect(event.installId == "install-42" && event.feature == Fixtures.feature && event.configVersion == 7)
        #expect(event.variant == "bullets" && event.rolloutArm == "bullets-arm")
        #expect(event.bucket == RolloutBucketing.bucket(seed: "s1", feature: Fixtures.feature, installId: "install-42"))
        #expect(event.outcome == .served && event.errorKind == nil)
        #expect(event.servedBy == "b" && event.servedTier == .thirdParty)
        #expect(event.attempts.map(\.model) == ["a", "b"])
        #expect(event.attempts.map(\.outcome) == [.failed, .served])
        #expect(event.attempts[0].errorKind == "server_error")
        #expect(event.attempts[1].startMs >= event.attempts[0].startMs)
        #expect(event.inputTokens == 1000 && event.outputTokens == 500 && !event.tokensEstimated)
        #expect(abs(event.costUSD - 0.002) < 1e-12)
        #expect(event.labels == Self.labels)
        #expect(event.content == nil && !event.cacheHit && event.checks.isEmpty)
        #expect(event.latencyMs >= event.attempts[1].startMs)
        #expect(abs(event.timestamp.timeIntervalSince(before)) < 5)
        let json = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        #expect(!json.contains("quick brown fox") && !json.contains(routed.response.text))
    }

    @Test("failed and declined requests each report one event with the router's reason")
    func failedAndDeclined() async throws {
        let sink = InMemoryEventSink()
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .fail(.timeout(model: "a", after: nil, phase: .deadline)))
        let b = ScriptedLanguageModel(id: "b", tier: .thirdParty, whenExhausted: .fail(.rateLimited(model: "b", retryAfter: nil, retryable: true, detail: "")))
        let router = try Self.router(a, b, sink: sink, policy: RouterDefaults(minimumInputCharacters: [Fixtures.feature: 5]))
        await #expect(throws: RouterError.self) { try await router.generate(feature: Fixtures.feature, input: Fixtures.input) }
        await #expect(throws: RouterError.self) { try await router.generate(feature: Fixtures.feature, input: ["input": "hi"]) }
        let events = sink.events
        #expect(events.map(\.outcome) == [.failed, .declined])
        #expect(events.map(\.errorKind) == ["no_eligible_model", "input_too_short"])
        #expect(events[0].attempts.map(\.errorKind) == ["timeout", "rate_limited"])
        #expect(events[0].servedBy == nil && events[0].costUSD == 0)
        #expect(events[1].attempts.isEmpty && events[1].variant == "bullets" && events[1].rolloutArm == "bullets-arm")
    }

    @Test("a streamed request reports once; content and check results appear when the feature opts in")
    func streamedWithContent() async throws {
        let sink = InMemoryEventSink()
        let a = ScriptedLanguageModel(id: "a", script: [.reply("one two three four five six seven")])
        let b = ScriptedLanguageModel(id: "b", tier: .thirdParty)
        let router = try Self.router(a, b, sink: sink, includeContent: true, constraints: OutputConstraints(maxSentences: 2, maxWords: 5))
        var text = ""
        for try await event in router.stream(feature: Fixtures.feature, input: Fixtures.input) {
            if case .delta(let delta) = event { text += delta }
        }
        let event = try #require(sink.events.first)
        #expect(sink.events.count == 1)
        #expect(event.outcome == .served && event.servedBy == "a" && event.attempts.map(\.outcome) == [.served])
        #expect(event.content == RouteEvent.Content(inputs: Fixtures.input, output: text))
        #expect(event.checks == [.init(name: "max_sentences", passed: true), .init(name: "max_words", passed: false)])
        #expect(event.tokensEstimated)
    }
}
