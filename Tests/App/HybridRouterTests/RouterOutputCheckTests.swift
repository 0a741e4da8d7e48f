import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

@Suite("Router: routing policy from the config, output checks, attempt timeouts, streaming modes")
struct RouterOutputCheckTests {
    static let topicsSchema: JSONValue = [
        "type": "object", "required": ["topics"],
        "properties": ["topics": ["type": "array", "items": ["type": "string"], "minItems": 1]],
    ]
    static let good = #"{"topics": ["housing"]}"#
    static let empty = #"{"topics": []}"#

    /// A router over `models` whose feature has the topics schema, a max_words constraint and `routing`.
    static func router(
        _ models: [ScriptedLanguageModel], routing: RoutingConfig?, documentRouting: RoutingConfig? = nil,
        policy: RouterDefaults = RouterDefaults(), deadlineMs: Int? = nil
    ) throws -> Router {
        let clock = TestClock()
        var configs: [String: ModelConfig] = [:]
        for m in models {
            m.run(on: clock.virtual)
            configs[m.id] = Fixtures.modelConfig(tier: m.tier)
        }
        var document = Fixtures.document(models: configs, priority: models.map(\.id), deadlineMs: deadlineMs)
        document.features[Fixtures.feature]?.outputSchema = try JSONSchema(topicsSchema)
        document.features[Fixtures.feature]?.constraints = OutputConstraints(maxWords: 5)
        document.features[Fixtures.feature]?.routing = routing
        document.routing = documentRouting
        return Router(
            unvalidated: .fixed(try ConfigValidator.validate(document).document),
            models: .models(Dictionary(uniqueKeysWithValues: models.map { ($0.id, $0 as any LanguageModel) })),
            installId: "install-1", clock: clock.routerClock, policy: policy, onIncident: { _ in })
    }

    @Test("a schema failure falls back and the attempt names the path and keyword")
    func schemaFailureFallsBack() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.reply(Self.empty)])
        let b = ScriptedLanguageModel(id: "b", script: [.reply(Self.good)])
        let routed = try await Self.router([a, b], routing: RoutingConfig(fallbackOnOutput: ["schema"]))
            .generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(routed.servedBy.id == "b")
        #expect(!routed.isFailing && routed.failedChecks.isEmpty)
        guard routed.attempts[0].outcome.kind == .failedChecks else {
            Issue.record("expected failedChecks, got \(routed.attempts[0].outcome)")
            return
        }
        #expect(routed.attempts[0].outcome.checkFailures.map(\.description) == ["schema: $.topics minItems"])
        #expect(routed.attempts[0].description.contains("failed checks: schema: $.topics minItems"))
        #expect(routed.attempts[1].outcome == .served)
    }

    @Test("a named soft constraint falls back; checks the policy does not name are reported, not acted on")
    func namedConstraint() async throws {
        let wordy = #"{"topics": ["one two three four five six"]}"#
        let a = ScriptedLanguageModel(id: "a", script: [.reply(wordy), .reply(wordy)])
        let b = ScriptedLanguageModel(id: "b", script: [.reply(Self.good), .reply(Self.good)])
        let named = try await Self.router([a, b], routing: RoutingConfig(fallbackOnOutput: ["max_words"]))
            .generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(named.servedBy.id == "b")
        guard named.attempts[0].outcome.kind == .failedChecks else {
            Issue.record("expected failedChecks, got \(named.attempts[0].outcome)")
            return
        }
        #expect(named.attempts[0].outcome.checkFailures.map(\.name) == ["max_words"])
        #expect(named.attempts[0].description.contains("constraint: max_words"))

        let schemaOnly = try await Self.router([a, b], routing: RoutingConfig(fallbackOnOutput: ["schema"]))
            .generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(schemaOnly.servedBy.id == "a")
        #expect(schemaOnly.failedChecks.map(\.name) == ["max_words"])
        #expect(!schemaOnly.isFailing)
    }

    @Test("when every model fails its checks the best answer comes back marked failing, or the router throws")
    func everyModelFails() async throws {
        let notJSON = ScriptedLanguageModel(id: "a", whenExhausted: .reply("no JSON here"))
        let emptyTopics = ScriptedLanguageModel(id: "b", whenExhausted: .reply(Self.empty))
        let best = try await Self.router([notJSON, emptyTopics], routing: RoutingConfig(fallbackOnOutput: ["schema"]))
            .generate(feature: Fixtures.feature, input: Fixtures.input)
        // "no JSON here" fails json_parses and schema_valid; the empty list fails only schema_valid.
        #expect(best.servedBy.id == "b")
        #expect(best.isFailing)
        #expect(best.failedChecks.map(\.description) == ["schema: $.topics minItems"])

        let throwing = try Self.router([notJSON, emptyTopics], routing: RoutingConfig(fallbackOnOutput: ["schema"], whenChecksFail: .throwError))
        await #expect(throws: RouterError.self) { try await throwing.generate(feature: Fixtures.feature, input: Fixtures.input) }
        do {
            _ = try await throwing.generate(feature: Fixtures.feature, input: Fixtures.input)
        } catch {
            guard error.code == .outputChecksFailed else {
                Issue.record("expected outputChecksFailed, got \(error)")
                return
            }
            #expect(error.attempts.map(\.description).allSatisfy { $0.contains("failed checks: schema") })
        }
    }

    @Test("a per-attempt timeout cancels the slow call and moves on inside the overall deadline")
    func attemptTimeout() async throws {
        let slow = ScriptedLanguageModel(id: "a", script: [.hang])
        let fast = ScriptedLanguageModel(id: "b", script: [.reply(Self.good)])
        let router = try Self.router([slow, fast], routing: RoutingConfig(attemptTimeoutMs: 100), deadlineMs: 20_000)
        let routed = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(routed.servedBy.id == "b")
        #expect(routed.attempts[0].outcome == .timedOut(after: .milliseconds(100)))
        #expect(routed.attempts[0].duration == .milliseconds(100))
        await slow.waitUntil { $0.cancellations == 1 }
    }

    @Test("the config's routing overrides the app's RouterDefaults; what the config does not say comes from it")
    func configOverridesPolicy() async throws {
        let refusing = ScriptedLanguageModel(id: "a", whenExhausted: .fail(.refusal(model: "a", detail: "no")))
        let other = ScriptedLanguageModel(id: "b", whenExhausted: .reply(Self.good))
        // The app allows refusals to fall back; the published config says stop.
        let policy = RouterDefaults(routing: RoutingConfig(onError: ["refusal": .fallback]))
        let stopped = try Self.router([refusing, other], routing: nil, documentRouting: RoutingConfig(onError: ["refusal": .stop]), policy: policy)
        await #expect(throws: RouterError.self) { try await stopped.generate(feature: Fixtures.feature, input: Fixtures.input) }
        // Without a word in the config, the app's policy applies.
        let allowed = try Self.router([refusing, other], routing: nil, policy: policy)
        #expect(try await allowed.generate(feature: Fixtures.feature, input: Fixtures.input).servedBy.id == "b")
    }

    @Test("buffered streams fall back on failed checks and deliver only the accepted text; progressive ones cannot")
    func streamingModes() async throws {
        func collect(_ router: Router) async throws -> (text: String, response: RoutedResponse?) {
            var text = ""
            var response: RoutedResponse?
            for try await event in router.stream(feature: Fixtures.feature, input: Fixtures.input) {
                switch event {
                case .delta(let delta): text += delta
                case .reset: text = ""
                case .completed(let routed): response = routed
                case .attempt: break
                }
            }
            return (text, response)
        }
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply(Self.empty))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply(Self.good))
        let buffered = try await collect(try Self.router([a, b], routing: RoutingConfig(fallbackOnOutput: ["schema"], streaming: .buffered)))
        #expect(buffered.text == Self.good)
        #expect(buffered.response?.servedBy.id == "b")

        let progressive = try await collect(try Self.router([a, b], routing: RoutingConfig(fallbackOnOutput: ["schema"], streaming: .progressive)))
        #expect(progressive.text == Self.empty)
        #expect(progressive.response?.servedBy.id == "a")
        #expect(progressive.response?.failedChecks.map(\.description) == ["schema: $.topics minItems"])
    }
}
