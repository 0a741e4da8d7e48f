import Foundation
import HybridCollect
import HybridConfig
import HybridCore
import HybridEvents
import HybridProjectTestSupport
import HybridRouter
import HybridStore
import HybridTestSupport
import Testing

/// A rule goes out safely as a rollout arm that sets only `inputRules` (installs in the arm get the rule, the rest
/// the feature without it): `hybrid rollout start` accepts and publishes such an arm, and the events of its installs
/// name both the arm and the rule, so the field report compares the arm with the control and describes the rule's
/// branch.
@Suite struct RolloutInputRuleTests {
    static let rule = InputRule(name: "long-inputs", when: [InputTest(.inputCharacters, atLeast: 400)], priority: ["cloud"])

    /// `summarize` on `device` alone; the arm `rule` (0 % before the start) adds the rule that sends long inputs to
    /// `cloud`, under a plan of 10, 50 and 100 %.
    static func document() -> HybridConfigDocument {
        func model(_ tier: ModelTier) -> ModelConfig {
            ModelConfig(
                kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "m", tier: tier, pricing: .free,
                contextWindow: 4_096, capabilities: .init(structuredOutput: false, streaming: true))
        }
        let feature = FeatureConfig(
            variants: ["concise": PromptVariant(template: "Summarize: {{input}}")], defaultVariant: "concise",
            priority: ["device"], privacy: .open)
        var document = HybridConfigDocument(
            version: 1, models: ["device": model(.onDevice), "cloud": model(.privateCloud)], features: ["summarize": feature])
        document.rollouts["summarize"] = RolloutConfig(
            seed: "rule-rollout", arms: [RolloutArm(name: "rule", percentage: 0, inputRules: [rule])],
            plan: RolloutPlan(stages: [10, 50, 100], minStageHours: 0, minInstallsPerArm: 20, guardrails: [.init(metric: .errorRate)]))
        return document
    }

    @Test func anArmWithOnlyInputRulesStartsAndItsEventsCarryArmAndRule() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = directory.url.appendingPathComponent("rollout.sqlite").path
        let destination = directory.url.appendingPathComponent("hybrid.json")
        let initial = directory.url.appendingPathComponent("v1.json")
        try Self.document().encodedJSON().write(to: initial)
        let published = try await HybridCLI.run(["config", "publish", initial.path, "--to", destination.absoluteString, "--db", db], in: directory.url)
        #expect(published.status == 0, "\(published.output)")
        let started = try await HybridCLI.run(["rollout", "start", "summarize", "--to", destination.absoluteString, "--db", db], in: directory.url)
        #expect(started.status == 0, "\(started.output)")
        let served = try ConfigValidator.load(try Data(contentsOf: destination)).document
        #expect(served.rollouts["summarize"]?.arms.first?.percentage == 10)

        let events = try await Self.longRequests(installs: 200, config: served)
        let inArm = events.filter { $0.rolloutArm == "rule" }
        #expect(inArm.count > 5 && inArm.count < 40, "about 10 % of 200 installs: \(inArm.count)")
        #expect(inArm.allSatisfy { $0.inputRule == "long-inputs" && $0.servedBy == "cloud" })
        #expect(events.filter { $0.rolloutArm == nil }.allSatisfy { $0.inputRule == nil && $0.servedBy == "device" })
        // The collector keeps both, so the report can split the arm and describe the rule's branch.
        let stored = try #require(inArm.first.map { try FieldEventRecord.validated($0).get() })
        #expect(stored.rolloutArm == "rule" && stored.inputRule == "long-inputs")
    }

    /// One long request from each of `installs` installs through a real router over `config`, and its events.
    static func longRequests(installs: Int, config: HybridConfigDocument) async throws -> [RouteEvent] {
        let sink = InMemoryEventSink()
        let models: [String: any LanguageModel] = [
            "device": ScriptedLanguageModel(id: "device", whenExhausted: .reply("Fine.")),
            "cloud": ScriptedLanguageModel(id: "cloud", tier: .privateCloud, whenExhausted: .reply("Fine.")),
        ]
        let input = String(repeating: "The feeds were fine today. ", count: 20)
        for install in 0..<installs {
            let router = try Router(config: .fixed(config), models: .models(models), installId: "install-\(install)", eventSink: sink)
            _ = try await router.generate(feature: "summarize", input: ["input": input])
        }
        return sink.events
    }
}
