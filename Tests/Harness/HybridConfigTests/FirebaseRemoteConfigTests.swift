import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

@Suite("Firebase Remote Config import/export")
struct FirebaseRemoteConfigTests {
    @Test func exportThenImportGivesAnEqualDocument() throws {
        var document = Fixtures.bundled().document
        document.schema = nil  // an editor hint, deliberately not carried
        let template = try FirebaseRemoteConfig.exportTemplate(document)
        let imported = try FirebaseRemoteConfig.importTemplate(template)
        #expect(imported.document == document)
        #expect(imported.warnings.isEmpty)
        #expect(try ConfigValidator.load(imported.json).document == document)
    }

    @Test func exportUsesTheRESTTemplateShape() throws {
        let template = try JSONDecoder().decode(JSONValue.self, from: FirebaseRemoteConfig.exportTemplate(Fixtures.bundled().document))
        let summarize = try #require(template["parameters"]?["hybrid_feature_summarize"])
        #expect(summarize["valueType"] == "JSON")
        let value = try #require(summarize["defaultValue"]?["value"]?.stringValue)
        let feature = try Fixtures.feature(json: value)
        #expect(feature.priority.first == "local-smollm2")
        #expect(template["parameters"]?["hybrid_version"]?["valueType"] == "NUMBER")
        #expect(template["parameters"]?["hybrid_version"]?["defaultValue"]?["value"] == "1")
        #expect(template["version"]?["description"]?.stringValue == Fixtures.bundled().document.description)
    }

    @Test func importReadsGroupsFallsBackToVersionNumberAndWarns() throws {
        let models = String(decoding: try JSONEncoder().encode(Fixtures.bundled().document.models), as: UTF8.self)
        let feature = String(decoding: try JSONEncoder().encode(Fixtures.bundled().document.features["classify"]), as: UTF8.self)
        let template: JSONValue = [
            "parameters": [
                "welcome_message": ["defaultValue": ["value": "hi"]],
                "hybrid_models": ["defaultValue": ["value": .string(models)], "valueType": "JSON"],
            ],
            "parameterGroups": [
                "hybridai": [
                    "parameters": [
                        "hybrid_feature_classify": [
                            "defaultValue": ["value": .string(feature)], "valueType": "JSON",
                            "conditionalValues": ["ios": ["value": "{}"]],
                        ]
                    ]
                ]
            ],
            "version": ["versionNumber": "42", "description": "from the console"],
        ]
        let result = try FirebaseRemoteConfig.importTemplate(template.data)
        #expect(result.document.version == 42)
        #expect(result.document.description == "from the console")
        #expect(Array(result.document.features.keys) == ["classify"])
        #expect(Set(result.warnings.map(\.path)) == [
            "parameters.welcome_message",
            // The template defines no condition "ios", so its conditional value cannot apply.
            "parameterGroups.hybridai.parameters.hybrid_feature_classify.conditionalValues.ios",
        ])
    }

    @Test func importNamesTheBrokenParameter() {
        let template: JSONValue = [
            "parameters": [
                "hybrid_version": ["defaultValue": ["value": "3"], "valueType": "NUMBER"],
                "hybrid_models": ["defaultValue": ["value": "{not json"], "valueType": "JSON"],
            ]
        ]
        #expect(throws: ConfigError.self) { try FirebaseRemoteConfig.importTemplate(template.data) }
        do {
            _ = try FirebaseRemoteConfig.importTemplate(template.data)
        } catch {
            guard error.kind == .firebase, let path = error.path else {
                Issue.record("expected a firebase error, got \(error)")
                return
            }
            #expect(path == "parameters.hybrid_models.defaultValue.value")
        }
    }
}
