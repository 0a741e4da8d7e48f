import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

@Suite("Conditions: targeting by the app's labels")
struct ConditionTests {
    /// The defaults with three conditions and `summarize` overridden under two of them.
    static func targeted(_ edit: (inout JSONValue) -> Void = { _ in }) -> Data {
        Fixtures.config { tree in
            tree.set(["conditions"], [
                ["name": "older-phones", "labels": ["deviceClass": ["oneOf": ["iphone-11", "iphone-12"]]]],
                ["name": "app-3.2", "labels": ["appVersion": ["atLeast": "3.2"], "platform": ["equals": "ios"]]],
                ["name": "german", "labels": ["locale": ["prefix": "de"]]],
            ])
            tree.set(["features", "summarize", "overrides"], [
                "older-phones": ["priority": ["gemini-flash", "local-smollm2"], "deadlineMs": 4000],
                "german": ["variants": ["concise": ["template": "Fasse zusammen: {{input}}"]]],
            ])
            edit(&tree)
        }
    }

    @Test("semantic versions compare numerically, missing parts are zero, suffixes are ignored")
    func versions() throws {
        let v = { (text: String) in try #require(SemanticVersion(text)) }
        #expect(try v("3.2") < v("3.10"))
        #expect(try v("3.2") == v("3.2.0"))
        #expect(try v("18.0.1 (22A)") == v("18.0.1"))
        #expect(try v("3.2-beta") == v("3.2"))
        #expect(SemanticVersion("beta") == nil)
        let test = LabelTest(atLeast: "3.2", below: "4")
        #expect(test.matches("3.2") && test.matches("3.10.1") && !test.matches("3.1.9") && !test.matches("4.0") && !test.matches("x"))
    }

    @Test("first match wins, in the document's order, among the conditions the feature overrides")
    func firstMatchWins() throws {
        let document = try ConfigValidator.load(Self.targeted()).document
        let both = ["deviceClass": "iphone-12", "locale": "de-AT"]
        let resolved = try #require(document.resolve(feature: "summarize", labels: both, installId: "i"))
        #expect(resolved.condition == "older-phones")
        #expect(resolved.config.priority == ["gemini-flash", "local-smollm2"])
        #expect(resolved.config.deadlineMs == 4000)
        #expect(resolved.config.overrides == nil)

        let german = try #require(document.resolve(feature: "summarize", labels: ["locale": "de"], installId: "i"))
        #expect(german.condition == "german")
        #expect(german.config.variants["concise"]?.template == "Fasse zusammen: {{input}}")
        #expect(german.config.variants["bullet"] == document.features["summarize"]?.variants["bullet"])

        // app-3.2 holds but summarize does not override it; a label the app did not set fails its tests.
        let plain = try #require(document.resolve(feature: "summarize", labels: ["appVersion": "3.4", "platform": "ios"], installId: "i"))
        #expect(plain.condition == nil && plain.config.priority == document.features["summarize"]?.priority)
        #expect(document.resolve(feature: "extract", labels: both, installId: "i")?.condition == nil)
    }

    @Test("a seeded percentile takes the same installs every time, about the share it names")
    func percentile() {
        let range = PercentileRange(seed: "prompt-v2", below: 10)
        let inside = (0..<10_000).filter { range.contains(installId: "install-\($0)") }.count
        #expect(abs(inside - 1_000) < 100)
        #expect(range.contains(installId: "install-7") == range.contains(installId: "install-7"))
    }

    @Test("validation names the JSON path of every problem")
    func validation() {
        let data = Self.targeted { tree in
            tree.set(["conditions", 0, "labels", "appVersion"], ["atLeast": "three"])
            tree.set(["conditions", 2, "labels", "locale"], [:])
            tree.set(["features", "summarize", "overrides", "tablets"], ["priority": ["gemini-flash"]])
            tree.set(["features", "summarize", "overrides", "older-phones", "priority"], ["gpt-5"])
            tree.set(["features", "summarize", "overrides", "german", "defaultVariant"], "formal")
        }
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        #expect(issues.contains { $0.hasPrefix("conditions[0].labels.appVersion.atLeast: \"three\" is not a version") })
        #expect(issues.contains { $0.hasPrefix("conditions[2].labels.locale: set equals, oneOf") })
        #expect(issues.contains { $0.hasPrefix("features.summarize.overrides.tablets: condition \"tablets\" is not defined") })
        #expect(issues.contains { $0.hasPrefix("features.summarize.overrides.older-phones.priority[0]: model \"gpt-5\" is not defined") })
        #expect(issues.contains { $0.hasPrefix("features.summarize.overrides.german.defaultVariant: variant \"formal\" is not defined") })
    }

    @Test("conditions and overrides survive encoding; a document without them encodes as before")
    func encoding() throws {
        let document = try ConfigValidator.load(Self.targeted()).document
        let again = try ConfigValidator.load(document.encodedJSON()).document
        #expect(again == document)
        let plain = try ConfigValidator.load(Fixtures.config()).document
        #expect(!String(decoding: plain.encodedJSON(), as: UTF8.self).contains("conditions"))
        #expect(!String(decoding: plain.encodedJSON(), as: UTF8.self).contains("overrides"))
    }

    @Test("config diff names conditions, their order and each feature's overrides")
    func diff() throws {
        let old = try ConfigValidator.load(Self.targeted()).document
        var new = old
        new.conditions.insert(ConfigCondition(name: "tablets", labels: ["deviceClass": LabelTest(prefix: "tablet")]), at: 0)
        new.features["summarize"]?.overrides?["tablets"] = FeatureOverride(deadlineMs: 9000)
        new.features["summarize"]?.overrides?["german"] = nil
        let text = ConfigDiff.render(from: old, to: new)
        #expect(text.contains(#"conditions.tablets: added: {"labels":{"deviceClass":{"prefix":"tablet"}},"name":"tablets"}"#), "\(text)")
        #expect(text.contains("conditions: order older-phones, app-3.2, german → tablets, older-phones, app-3.2, german (first match wins)"), "\(text)")
        #expect(text.contains(#"features.summarize.overrides.tablets: none → {"deadlineMs":9000}"#), "\(text)")
        #expect(text.contains("features.summarize.overrides.german: {"), "\(text)")
    }
}
