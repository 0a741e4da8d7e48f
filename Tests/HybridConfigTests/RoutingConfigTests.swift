import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import Testing

@Suite("Routing policy in the config")
struct RoutingConfigTests {
    /// The bundled defaults with document-level routing defaults and a routing block on `extract`.
    static func withRouting(_ edit: (inout JSONValue) -> Void = { _ in }) -> Data {
        Fixtures.config { tree in
            tree.set(["routing"], ["onError": ["refusal": "stop", "timeout": "stop"], "rateLimitCooldownMs": 5000])
            tree.set(["features", "extract", "routing"], [
                "onError": ["timeout": "fallback"], "fallbackOnOutput": ["schema"], "attemptTimeoutMs": 4000,
                "whenChecksFail": "throw", "streaming": "buffered",
            ])
            edit(&tree)
        }
    }

    @Test func featureBlockOverridesDocumentDefaultsFieldByField() throws {
        let document = try ConfigValidator.load(Self.withRouting()).document
        let extract = try #require(document.routing(feature: "extract"))
        #expect(extract.onError == ["refusal": .stop, "timeout": .fallback])
        #expect(extract.rateLimitCooldownMs == 5000)
        #expect(extract.attemptTimeoutMs == 4000)
        #expect(extract.outputSelection == OutputCheckSelection(schema: true))
        #expect(extract.whenChecksFail == .throwError)
        // A feature without its own block gets the defaults as they are.
        #expect(document.routing(feature: "summarize") == document.routing)
    }

    @Test func invalidEntriesAreReportedWithTheirPaths() {
        let data = Self.withRouting { tree in
            tree.set(["features", "summarize", "routing"], [
                "onError": ["teapot": "stop"], "fallbackOnOutput": ["max_words", "shape"], "attemptTimeoutMs": -1,
            ])
        }
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        #expect(issues.contains { $0.hasPrefix("features.summarize.routing.onError.teapot: \"teapot\" is not an error kind") })
        #expect(issues.contains { $0.hasPrefix("features.summarize.routing.fallbackOnOutput[1]: \"shape\" is not an output check") })
        #expect(issues.contains { $0.hasPrefix("features.summarize.routing.attemptTimeoutMs: must be 0 (no per-attempt timeout) or more") })
    }

    @Test func checksTheFeatureDoesNotHaveAreRefused() {
        let data = Self.withRouting { tree in
            tree.set(["features", "summarize", "routing"], ["fallbackOnOutput": ["schema", "min_words"], "streaming": "buffered"])
        }
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        #expect(issues.contains("features.summarize.routing.fallbackOnOutput: falls back on schema but feature summarize has no outputSchema"))
        #expect(issues.contains { $0.hasPrefix("features.summarize.routing.fallbackOnOutput: falls back on min_words but feature summarize checks no such thing") })
    }

    @Test func badEnumValueNamesThePath() throws {
        let issues = Fixtures.errors(Self.withRouting { $0.set(["features", "extract", "routing", "streaming"], "eventually") })
        let issue = try #require(issues.first)
        #expect(issue.path == "features.extract.routing.streaming")
    }

    @Test func outputChecksOnProgressiveStreamsWarnAndUnknownKeysWarn() throws {
        let data = Self.withRouting { tree in
            tree.set(["features", "extract", "routing", "streaming"], nil)
            tree.set(["features", "extract", "routing", "retry"], true)
        }
        let warnings = try ConfigValidator.load(data).warnings.map(\.path)
        #expect(warnings.contains("features.extract.routing.streaming"))
        #expect(warnings.contains("features.extract.routing.retry"))
    }

    @Test func diffShowsRoutingChanges() throws {
        let old = try ConfigValidator.load(Fixtures.config()).document
        let new = try ConfigValidator.load(Self.withRouting()).document
        let paths = ConfigDiff.changes(from: old, to: new).map(\.path)
        #expect(paths.contains("routing"))
        #expect(paths.contains("features.extract.routing"))
        #expect(ConfigDiff.render(from: old, to: new).contains("\"attemptTimeoutMs\":4000"))
    }

    @Test func firebaseRoundTripKeepsRoutingAtBothLevels() throws {
        let document = try ConfigValidator.load(Self.withRouting()).document
        let template = try FirebaseRemoteConfig.exportTemplate(document)
        #expect(String(decoding: template, as: UTF8.self).contains("hybrid_routing"))
        let imported = try FirebaseRemoteConfig.importTemplate(template).document
        #expect(imported.routing == document.routing)
        #expect(imported.features["extract"]?.routing == document.features["extract"]?.routing)
    }

    @Test func jsonSchemaFileDescribesTheRoutingBlock() throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("prompts/hybrid-config.schema.json")
        let schema = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        let routing = try #require(schema["$defs"]?["routing"]?["properties"]?.objectValue)
        #expect(Set(routing.keys) == Set(["onError", "fallbackOnOutput", "attemptTimeoutMs", "rateLimitCooldownMs", "quotaCooldownMs", "whenChecksFail", "streaming"]))
        #expect(schema["$defs"]?["feature"]?["properties"]?["routing"] != nil)
        #expect(schema["properties"]?["routing"] != nil)
    }
}
