import Foundation
import HybridConfig
import HybridConfigTools
import HybridTestSupport
import Testing

@Suite("hybrid config export-firebase / import-firebase with conditions")
struct FirebaseCLITests {
    /// The bundled defaults with `conditions` and `summarize` overridden under the first, written to `name`.
    static func write(_ fixture: CLIFixture, _ name: String, conditions: [ConfigCondition]) throws -> String {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.conditions = conditions
        document.features["summarize"]?.overrides = [conditions[0].name: FeatureOverride(priority: ["gemini-flash", "local-smollm2"])]
        try document.encodedJSON().write(to: URL(fileURLWithPath: fixture.path(name)))
        return fixture.path(name)
    }

    @Test func conditionsSurviveExportAndImport() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let conditions = [
            ConfigCondition(name: "ios-3.2", labels: ["platform": LabelTest(equals: "ios"), "appVersion": LabelTest(atLeast: "3.2")]),
            ConfigCondition(name: "slice", percentile: PercentileRange(seed: "s", from: 10, below: 20)),
        ]
        let config = try Self.write(fixture, "config.json", conditions: conditions)
        let exported = try await fixture.hybrid(["config", "export-firebase", config, "--output", fixture.path("template.json")])
        #expect(exported.status == 0, "\(exported.output)")
        let imported = try await fixture.hybrid(["config", "import-firebase", fixture.path("template.json"), "--output", fixture.path("back.json")])
        #expect(imported.status == 0, "\(imported.output)")
        #expect(!imported.output.contains("warning"), "\(imported.output)")
        let back = try ConfigValidator.load(Data(contentsOf: URL(fileURLWithPath: fixture.path("back.json")))).document
        #expect(back.conditions == conditions)
        #expect(back.features["summarize"]?.overrides == ["ios-3.2": FeatureOverride(priority: ["gemini-flash", "local-smollm2"])])
    }

    @Test func exportNamesATestFirebaseCannotState() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let config = try Self.write(fixture, "config.json", conditions: [ConfigCondition(name: "german", labels: ["locale": LabelTest(prefix: "de")])])
        let exported = try await fixture.hybrid(["config", "export-firebase", config])
        #expect(exported.status != 0)
        #expect(exported.output.contains("conditions[0].labels.locale.prefix"), "\(exported.output)")
    }
}
