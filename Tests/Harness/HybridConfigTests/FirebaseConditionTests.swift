import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

@Suite("Firebase Remote Config conditions and conditional values")
struct FirebaseConditionTests {
    /// The defaults with a condition on every label kind Firebase has an element for, a custom label, a percentile
    /// and one condition no feature overrides; `summarize` and `classify` override several of them.
    static func targeted() throws -> HybridConfigDocument {
        try ConfigValidator.load(Fixtures.config { tree in
            tree.set(["conditions"], [
                ["name": "ios-3.2", "labels": ["platform": ["equals": "ios"], "appVersion": ["atLeast": "3.2", "below": "4"]]],
                ["name": "older-phones", "labels": ["deviceClass": ["oneOf": ["iphone-11", "iphone-12"]], "osVersion": ["below": "17"]]],
                ["name": "german", "labels": ["locale": ["oneOf": ["de-DE", "de-AT", "de-CH"]]]],
                ["name": "us", "labels": ["country": ["equals": "US"]]],
                ["name": "beta", "labels": ["channel": ["prefix": "beta."], "appVersion": ["prefix": "3."]]],
                ["name": "ten-percent", "percentile": ["seed": "prompt-v2", "from": 5, "below": 15]],
                ["name": "french", "labels": ["locale": ["equals": "fr-FR"]]],
            ])
            tree.set(["features", "summarize", "overrides"], [
                "older-phones": ["priority": ["gemini-flash", "local-smollm2"], "deadlineMs": 4000],
                "german": ["variants": ["concise": ["template": "Fasse zusammen: {{input}}"]]],
                "ios-3.2": ["options": ["temperature": 0.5, "maxOutputTokens": 100], "monthlyBudgetUSD": 8],
                // The feature's own deadline: it changes nothing, yet still wins first match over later conditions.
                "us": ["deadlineMs": 20000],
                "beta": ["routing": ["whenChecksFail": "throw"], "constraints": ["maxWords": 40]],
                "ten-percent": ["defaultVariant": "bullet"],
            ])
            tree.set(["features", "classify", "overrides"], [
                "ten-percent": ["priority": ["gemini-flash", "local-smollm2"]],
                "us": ["priority": ["openai-gpt-4o-mini", "local-smollm2"]],
            ])
        }).document
    }

    static func template(_ document: HybridConfigDocument) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: FirebaseRemoteConfig.exportTemplate(document))
    }

    @Test("export writes the conditions in order as Firebase expressions and each override as a conditional value")
    func exportWritesConditions() throws {
        let document = try Self.targeted()
        let template = try Self.template(document)
        let conditions = try #require(template["conditions"]?.arrayValue)
        #expect(conditions.compactMap { $0["name"]?.stringValue } == document.conditions.map(\.name))
        #expect(conditions.compactMap { $0["expression"]?.stringValue } == [
            "app.version.>=(['3.2']) && app.version.<(['4']) && device.os == 'ios'",
            "app.customSignal['deviceClass'].exactlyMatches(['iphone-11', 'iphone-12']) && version(app.customSignal['osVersion']) < '17'",
            "device.language in ['de-DE', 'de-AT', 'de-CH']",
            "device.country in ['US']",
            "app.version.matches(['^3[.]']) && app.customSignal['channel'].matches(['^beta[.]'])",
            "percent('prompt-v2') between 5 and 15",
            "device.language in ['fr-FR']",
        ])
        let summarize = try #require(template["parameters"]?["hybrid_feature_summarize"])
        let base = try Fixtures.feature(json: #require(summarize["defaultValue"]?["value"]?.stringValue))
        #expect(base.overrides == nil)
        let values = try #require(summarize["conditionalValues"]?.objectValue)
        #expect(Set(values.keys) == ["older-phones", "german", "ios-3.2", "us", "beta", "ten-percent"])
        let older = try Fixtures.feature(json: #require(values["older-phones"]?["value"]?.stringValue))
        #expect(older.priority == ["gemini-flash", "local-smollm2"] && older.deadlineMs == 4000 && older.overrides == nil)
        #expect(older.variants == base.variants && older.inputs == base.inputs)
        #expect(template["parameters"]?["hybrid_feature_extract"]?["conditionalValues"] == nil)
    }

    @Test("a document without conditions exports as before: no conditions, no conditional values")
    func plainDocumentExportsAsBefore() throws {
        let template = try Self.template(Fixtures.bundled().document)
        #expect(Set(try #require(template.objectValue).keys) == ["parameters", "version"])
        for (name, parameter) in try #require(template["parameters"]?.objectValue) {
            #expect(Set(try #require(parameter.objectValue).keys) == ["defaultValue", "valueType", "description"], "\(name)")
        }
    }

    @Test("export → import keeps the conditions, their order and what every install resolves to")
    func roundTripKeepsTheMeaning() throws {
        let document = try Self.targeted()
        let imported = try FirebaseRemoteConfig.importTemplate(FirebaseRemoteConfig.exportTemplate(document))
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        #expect(imported.document.conditions == document.conditions)
        let reloaded = try ConfigValidator.load(imported.json).document
        #expect(reloaded.conditions == document.conditions)

        // Installs on both sides of the percentile range, so the grid reaches every condition.
        let range = try #require(document.conditions.last(where: { $0.percentile != nil })?.percentile)
        let ids = (0..<200).map { "install-\($0)" }
        let installs = Array(ids.filter { range.contains(installId: $0) }.prefix(3)) + Array(ids.filter { !range.contains(installId: $0) }.prefix(3))
        #expect(installs.count == 6)
        let axes: [(String, [String?])] = [
            ("platform", [nil, "ios", "android"]), ("appVersion", [nil, "3.1", "3.2.5", "4.0"]),
            ("locale", [nil, "de-AT", "fr-FR", "en-US"]), ("country", [nil, "US", "DE"]),
            ("deviceClass", [nil, "iphone-11", "pixel-8"]), ("osVersion", [nil, "16.4", "17.1"]), ("channel", [nil, "beta.2", "stable"]),
        ]
        var grid: [[String: String]] = [[:]]
        for (label, values) in axes {
            grid = grid.flatMap { labels in values.map { value in labels.merging(value.map { [label: $0] } ?? [:]) { $1 } } }
        }
        var reached: Set<String> = []
        var mismatches = 0
        for labels in grid {
            for install in installs {
                for feature in ["summarize", "classify", "extract"] {
                    let before = document.resolve(feature: feature, labels: labels, installId: install)
                    let after = reloaded.resolve(feature: feature, labels: labels, installId: install)
                    if before != after { mismatches += 1 }
                    if let condition = before?.condition { reached.insert(condition) }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(reached == ["ios-3.2", "older-phones", "german", "us", "beta", "ten-percent"])
    }

    @Test("export refuses a test Firebase cannot state, naming its path")
    func exportRefusesWhatFirebaseCannotState() throws {
        var document = try Self.targeted()
        func failure(_ condition: ConfigCondition) throws -> String? {
            document.conditions[0] = condition
            do {
                _ = try FirebaseRemoteConfig.exportTemplate(document)
                return nil
            } catch {
                guard error.kind == .firebase else { return "unexpected \(error)" }
                return error.path
            }
        }
        #expect(try failure(ConfigCondition(name: "ios-3.2", labels: ["locale": LabelTest(prefix: "de")])) == "conditions[0].labels.locale.prefix")
        #expect(try failure(ConfigCondition(name: "ios-3.2", labels: ["platform": LabelTest(oneOf: ["ios", "android"])])) == "conditions[0].labels.platform.oneOf")
        #expect(try failure(ConfigCondition(name: "ios-3.2", labels: ["platform": LabelTest(equals: "iOS")])) == "conditions[0].labels.platform.equals")
        #expect(try failure(ConfigCondition(name: "ios-3.2", labels: ["country": LabelTest(atLeast: "3")])) == "conditions[0].labels.country.atLeast")
        #expect(try failure(ConfigCondition(name: "ios-3.2", percentile: PercentileRange(seed: "a seed with spaces", below: 5))) == "conditions[0].percentile.seed")
        #expect(try failure(ConfigCondition(name: "ios-3.2", labels: ["platform": LabelTest(equals: "android")])) == nil)
    }

    /// A template as the Firebase console writes it: condition syntax from
    /// firebase.google.com/docs/remote-config/condition-reference, template shape (tagColor, conditionalValues,
    /// version metadata) from firebase.google.com/docs/reference/remote-config/rest/v1/RemoteConfig.
    @Test("a console-written template with conditions imports; what HybridAI cannot state is named")
    func consoleTemplateImports() throws {
        let classify = try #require(Fixtures.defaults["features"]?["classify"])
        func text(_ value: JSONValue) -> JSONValue { .string(String(decoding: value.data, as: UTF8.self)) }
        func edited(_ path: [Step], _ value: JSONValue) -> JSONValue {
            var copy = classify
            copy.set(path, value)
            return ["value": text(copy)]
        }
        let models = try #require(Fixtures.defaults["models"])
        let template: JSONValue = [
            "conditions": [
                ["name": "iOS 3.2+", "expression": "device.os == 'ios' && app.version.>=(['3.2'])", "tagColor": "BLUE"],
                ["name": "purchasers", "expression": "app.audiences.inAtLeastOne(['Purchasers'])", "tagColor": "GREEN"],
                ["name": "german", "expression": "device.language in ['de', 'de-AT'] && device.country in ['DE', 'AT']", "tagColor": "ORANGE"],
                ["name": "summer_sale", "expression": "dateTime >= dateTime('2025-06-01T00:00:00', 'America/Los_Angeles')", "tagColor": "PINK"],
                ["name": "old_phones", "expression": "app.customSignal['deviceClass'].exactlyMatches(['iphone-11']) && version(app.customSignal['osVersion']) < '17'"],
                ["name": "quarter", "expression": "percent <= 25"],
                ["name": "seeded", "expression": "percent('prompt-v2') between 10 and 20"],
            ],
            "parameters": [
                "hybrid_version": ["defaultValue": ["value": "7"], "valueType": "NUMBER"],
                "hybrid_models": [
                    "defaultValue": ["value": text(models)], "valueType": "JSON",
                    "conditionalValues": ["iOS 3.2+": ["value": text(models)]],
                ],
                "hybrid_feature_classify": [
                    "defaultValue": ["value": text(classify)],
                    "conditionalValues": [
                        "iOS 3.2+": edited(["priority"], ["gemini-flash", "local-smollm2"]),
                        "purchasers": edited(["priority"], ["openai-gpt-4o-mini"]),
                        "german": edited(["deadlineMs"], 5000).merging(instructions: "Antworte auf Deutsch."),
                        "old_phones": ["useInAppDefault": true],
                        "quarter": ["value": text(classify)],
                        "gone": edited(["deadlineMs"], 1000),
                    ],
                    "valueType": "JSON", "description": "HybridAI feature classify",
                ],
                "welcome_message": ["defaultValue": ["value": "Hi"], "conditionalValues": ["purchasers": ["value": "Thanks!"]]],
            ],
            "version": ["versionNumber": "12", "updateOrigin": "CONSOLE", "updateType": "INCREMENTAL_UPDATE", "updateTime": "2025-06-02T10:00:00Z"],
        ]
        let result = try FirebaseRemoteConfig.importTemplate(template.data)
        let document = result.document
        #expect(document.version == 7)
        #expect(document.conditions == [
            ConfigCondition(name: "iOS_3.2_", labels: ["platform": LabelTest(equals: "ios"), "appVersion": LabelTest(atLeast: "3.2")]),
            ConfigCondition(name: "german", labels: ["locale": LabelTest(oneOf: ["de", "de-AT"]), "country": LabelTest(oneOf: ["DE", "AT"])]),
            ConfigCondition(name: "old_phones", labels: ["deviceClass": LabelTest(equals: "iphone-11"), "osVersion": LabelTest(below: "17")]),
            ConfigCondition(name: "quarter", percentile: PercentileRange(seed: "firebase-percent", below: 25)),
            ConfigCondition(name: "seeded", percentile: PercentileRange(seed: "prompt-v2", from: 10, below: 20)),
        ])
        let overrides = try #require(document.features["classify"]?.overrides)
        #expect(overrides == [
            "iOS_3.2_": FeatureOverride(priority: ["gemini-flash", "local-smollm2"]),
            "german": FeatureOverride(deadlineMs: 5000),
            "quarter": FeatureOverride(),
        ])
        let messages = Dictionary(result.warnings.map { ($0.path, $0.message) }) { a, _ in a }
        #expect(Set(messages.keys) == [
            "conditions[0].name", "conditions[1]", "conditions[3]",
            "parameters.hybrid_models.conditionalValues",
            "parameters.hybrid_feature_classify.conditionalValues.german",
            "parameters.hybrid_feature_classify.conditionalValues.old_phones",
            "parameters.hybrid_feature_classify.conditionalValues.gone",
            "parameters.welcome_message",
        ])
        #expect(messages["conditions[1]"]?.contains("app.audiences") == true)
        #expect(messages["conditions[1]"]?.contains("hybrid_feature_classify") == true)
        #expect(messages["conditions[3]"]?.contains("dateTime") == true)
        #expect(messages["parameters.hybrid_feature_classify.conditionalValues.german"]?.hasPrefix("instructions differ") == true)
        #expect(result.warnings.allSatisfy { $0.severity == .warning })

        let validated = try ConfigValidator.load(result.json).document
        let ios = validated.resolve(feature: "classify", labels: ["platform": "ios", "appVersion": "3.4", "locale": "de"], installId: "i")
        #expect(ios?.condition == "iOS_3.2_" && ios?.config.priority == ["gemini-flash", "local-smollm2"])
        let german = validated.resolve(feature: "classify", labels: ["platform": "android", "locale": "de-AT", "country": "AT"], installId: "i")
        #expect(german?.condition == "german" && german?.config.deadlineMs == 5000)
    }

    @Test("an expression HybridAI cannot state leaves its condition out; an unknown operator is named")
    func unmappableExpressions() throws {
        let feature = String(decoding: try JSONEncoder().encode(Fixtures.bundled().document.features["classify"]), as: UTF8.self)
        let models = String(decoding: try JSONEncoder().encode(Fixtures.bundled().document.models), as: UTF8.self)
        let expressions = [
            "app.userProperty['tier'].exactlyMatches(['gold'])", "app.firstOpenTimestamp <= ('2025-01-01T09:00:00')",
            "app.id == '1:123:ios:abc'", "app.version.>(['3.2'])", "app.customSignal['level'] >= 5",
            "device.os == 'ios' || device.os == 'android'", "app.version.matches(['beta$'])", "percent > 10 && percent <= 20",
        ]
        var conditions: [JSONValue] = []
        for (i, expression) in expressions.enumerated() { conditions.append(["name": .string("c\(i)"), "expression": .string(expression)]) }
        let template: JSONValue = [
            "conditions": .array(conditions),
            "parameters": [
                "hybrid_version": ["defaultValue": ["value": "1"]],
                "hybrid_models": ["defaultValue": ["value": .string(models)]],
                "hybrid_feature_classify": ["defaultValue": ["value": .string(feature)]],
            ],
        ]
        let result = try FirebaseRemoteConfig.importTemplate(template.data)
        #expect(result.document.conditions.isEmpty)
        #expect(result.warnings.map(\.path) == expressions.indices.map { "conditions[\($0)]" })
        for (warning, element) in zip(result.warnings, ["app.userProperty", "app.firstOpenTimestamp", "app.id", "app.version >", "numeric", "||", "matches", "two percent"]) {
            #expect(warning.message.contains(element), "\(warning.message)")
            #expect(warning.message.contains("left out"), "\(warning.message)")
        }
    }
}

extension JSONValue {
    /// A conditional value (`{"value": "<feature JSON>"}`) whose feature also has other `instructions`.
    fileprivate func merging(instructions: String) -> JSONValue {
        guard let text = self["value"]?.stringValue,
              var feature = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return self }
        feature.set(["instructions"], .string(instructions))
        return ["value": .string(String(decoding: feature.data, as: UTF8.self))]
    }
}
