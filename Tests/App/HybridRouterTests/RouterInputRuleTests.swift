@testable import HybridConfig
@testable import HybridCore
@testable import HybridEvents
@testable import HybridRouter
@testable import HybridTestSupport
import Testing

@Suite("Router: input rules choose the route per request")
struct RouterInputRuleTests {
    struct Setup {
        var router: Router
        var local: ScriptedLanguageModel
        var cloud: ScriptedLanguageModel
        var sink: InMemoryEventSink
    }

    static let long = String(repeating: "A long paragraph about the river. ", count: 60)

    /// `summarize` is on-device first; long inputs go to the cloud in the bullets variant, long-form calls too.
    static func setup(
        rules: [InputRule] = defaultRules, rollout: RolloutConfig? = nil, routerLabels: [String: String] = [:]
    ) -> Setup {
        let local = ScriptedLanguageModel(id: "local", whenExhausted: .reply("from the phone"))
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("from the cloud"))
        var document = Fixtures.document(
            models: ["local": Fixtures.modelConfig(tier: .onDevice), "cloud": Fixtures.modelConfig(tier: .thirdParty)],
            priority: ["local", "cloud"], rollout: rollout)
        document.features[Fixtures.feature]?.inputRules = rules
        let sink = InMemoryEventSink()
        let router = Router(
            unvalidated: .fixed(document), models: .models(["local": local, "cloud": cloud]), installId: "install-1", eventSink: sink,
            eventLabels: routerLabels, onIncident: { _ in })
        return Setup(router: router, local: local, cloud: cloud, sink: sink)
    }

    static let defaultRules = [
        InputRule(name: "long-inputs", when: [InputTest(.inputCharacters, atLeast: 1500)], priority: ["cloud", "local"], variant: "bullets"),
        InputRule(name: "long-form", when: [InputTest(label: "kind", LabelTest(equals: "long-form"))], priority: ["cloud"]),
    ]

    @Test("a long input goes to the rule's order and variant, a short one stays on the feature's; responses and events name the rule")
    func lengthRule() async throws {
        let s = Self.setup()
        let short = try await s.router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(short.servedBy.id == "local" && short.inputRule == nil && short.variant == "plain")
        let long = try await s.router.generate(feature: Fixtures.feature, input: ["input": Self.long])
        #expect(long.servedBy.id == "cloud")
        #expect(long.inputRule == "long-inputs")
        #expect(long.variant == "bullets")
        #expect(s.cloud.requests.first?.messages.first?.content.hasPrefix("Bullets: ") == true, "the rule's variant is what the model read")
        #expect(long.attempts.map(\.modelID) == ["cloud"], "the local model is not tried first")
        #expect(s.sink.events.map(\.inputRule) == [nil, "long-inputs"])
        #expect(s.sink.events.map(\.servedBy) == ["local", "cloud"])
    }

    @Test("a label passed with the call selects a rule; the call's labels win over the router's")
    func callLabels() async throws {
        let s = Self.setup(routerLabels: ["kind": "chat"])
        let plain = try await s.router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(plain.inputRule == nil, "the router's own kind is chat")
        let labelled = try await s.router.generate(feature: Fixtures.feature, input: Fixtures.input, labels: ["kind": "long-form"])
        #expect(labelled.inputRule == "long-form" && labelled.servedBy.id == "cloud")
        let viaRouter = Self.setup(routerLabels: ["kind": "long-form"])
        #expect(try await viaRouter.router.generate(feature: Fixtures.feature, input: Fixtures.input).inputRule == "long-form")
    }

    @Test("first match wins in list order, and a falling-back rule order still falls back")
    func firstMatchAndFallback() async throws {
        let rules = [
            InputRule(name: "any-text", when: [InputTest(.inputCharacters, atLeast: 1)], priority: ["cloud", "local"]),
            InputRule(name: "never-reached", when: [InputTest(.inputCharacters, atLeast: 1)], priority: ["local"]),
        ]
        let s = Self.setup(rules: rules)
        s.cloud.enqueue(.fail(.serverError(model: "cloud", status: 503, detail: "down")))
        let routed = try await s.router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(routed.inputRule == "any-text")
        #expect(routed.attempts.map(\.modelID) == ["cloud", "local"])
        #expect(routed.servedBy.id == "local")
    }

    @Test("binary or blank input fails every test on its text and takes the feature's own route")
    func unmeasurable() async throws {
        let rules = [InputRule(name: "short", when: [InputTest(.inputCharacters, below: 100_000)], priority: ["cloud"])]
        let s = Self.setup(rules: rules)
        let binary = try await s.router.generate(feature: Fixtures.feature, input: ["input": "\u{0}\u{1}\u{2}\u{FFFD}"])
        #expect(binary.inputRule == nil && binary.servedBy.id == "local")
        #expect(try await s.router.generate(feature: Fixtures.feature, input: Fixtures.input).inputRule == "short")
    }

    @Test("a rollout arm's rules replace the feature's, an empty list turns them off")
    func rolloutArm() async throws {
        let off = RolloutConfig(seed: "rules", arms: [RolloutArm(name: "no-rules", percentage: 100, inputRules: [])])
        let s = Self.setup(rollout: off)
        let routed = try await s.router.generate(feature: Fixtures.feature, input: ["input": Self.long])
        #expect(routed.inputRule == nil && routed.rolloutArm == "no-rules" && routed.servedBy.id == "local")
        let armRule = [InputRule(name: "arm-rule", when: [InputTest(.inputCharacters, atLeast: 10)], priority: ["cloud"])]
        let on = Self.setup(rules: [], rollout: RolloutConfig(seed: "rules", arms: [RolloutArm(name: "with", percentage: 100, inputRules: armRule)]))
        let armed = try await on.router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(armed.inputRule == "arm-rule" && armed.servedBy.id == "cloud")
        #expect(on.sink.events.last?.rolloutArm == "with" && on.sink.events.last?.inputRule == "arm-rule")
    }

    @Test("streams and conversation turns are routed by the same rules")
    func streamsAndTurns() async throws {
        let s = Self.setup()
        var completed: RoutedResponse?
        for try await event in s.router.stream(feature: Fixtures.feature, input: ["input": Self.long]) {
            if case .completed(let routed) = event { completed = routed }
        }
        #expect(completed?.inputRule == "long-inputs" && completed?.servedBy.id == "cloud")

        let turns = [InputRule(name: "second-turn", when: [InputTest(.turns, atLeast: 2)], priority: ["cloud"])]
        var document = Fixtures.document(
            models: ["local": Fixtures.modelConfig(tier: .onDevice), "cloud": Fixtures.modelConfig(tier: .thirdParty)],
            priority: ["local", "cloud"])
        document.features[Fixtures.feature]?.inputRules = turns
        let router = Router(
            unvalidated: .fixed(document), models: .models(["local": s.local, "cloud": s.cloud]), installId: "i",
            onIncident: { _ in })
        let chat = router.conversation(feature: Fixtures.feature)
        let first = try await chat.send("hello")
        let second = try await chat.send("and more")
        #expect(first.steps.last?.routed.inputRule == nil && first.steps.last?.routed.servedBy.id == "local")
        #expect(second.steps.last?.routed.inputRule == "second-turn" && second.steps.last?.routed.servedBy.id == "cloud")
    }
}
