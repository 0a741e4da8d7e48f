@testable import HybridConfig
@testable import HybridCore
@testable import HybridEvents
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

@Suite("Router: conditions select overrides by the app's labels")
struct RouterConditionTests {
    /// `summarize` is on-device first; on slow phones the config puts the cloud first.
    static func router(labels: [String: String], sink: InMemoryEventSink) throws -> (Router, local: ScriptedLanguageModel, cloud: ScriptedLanguageModel) {
        let local = ScriptedLanguageModel(id: "local", whenExhausted: .reply("from the phone"))
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("from the cloud"))
        var document = Fixtures.document(
            models: ["local": Fixtures.modelConfig(tier: .onDevice), "cloud": Fixtures.modelConfig(tier: .thirdParty)],
            priority: ["local", "cloud"])
        document.conditions = [
            ConfigCondition(name: "slow-phones", labels: ["deviceClass": LabelTest(oneOf: ["phone-2019", "phone-2020"])]),
            ConfigCondition(name: "new-app", labels: ["appVersion": LabelTest(atLeast: "3.2")]),
        ]
        document.features[Fixtures.feature]?.overrides = [
            "slow-phones": FeatureOverride(priority: ["cloud", "local"]),
            "new-app": FeatureOverride(defaultVariant: "bullets"),
        ]
        let router = Router(
            unvalidated: .fixed(document), models: .models(["local": local, "cloud": cloud]), installId: "install-1", eventSink: sink,
            eventLabels: labels, onIncident: { _ in })
        return (router, local, cloud)
    }

    @Test("the slow class is served cloud-first, the rest on-device, and responses and events name the condition")
    func perDeviceClass() async throws {
        let sink = InMemoryEventSink()
        let slow = try Self.router(labels: ["deviceClass": "phone-2019", "appVersion": "3.4"], sink: sink)
        let routed = try await slow.0.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(routed.servedBy.id == "cloud")
        #expect(routed.condition == "slow-phones")
        #expect(routed.variant == "plain", "the first matching condition's override applies, not the next one's")

        let fast = try Self.router(labels: ["deviceClass": "phone-2024", "appVersion": "3.4"], sink: sink)
        let other = try await fast.0.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(other.servedBy.id == "local")
        #expect(other.condition == "new-app")
        #expect(other.variant == "bullets")

        let none = try Self.router(labels: [:], sink: sink)
        #expect(try await none.0.generate(feature: Fixtures.feature, input: Fixtures.input).condition == nil)
        #expect(sink.events.map(\.condition) == ["slow-phones", "new-app", nil])
    }
}
