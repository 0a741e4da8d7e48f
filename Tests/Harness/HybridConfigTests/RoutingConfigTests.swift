import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import HybridTestSupport
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
        let url = ProjectRoot.url.appendingPathComponent("prompts/hybrid-config.schema.json")
        let schema = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        let routing = try #require(schema["$defs"]?["routing"]?["properties"]?.objectValue)
        #expect(Set(routing.keys) == Set(["onError", "fallbackOnOutput", "attemptTimeoutMs", "rateLimitCooldownMs", "quotaCooldownMs", "whenChecksFail", "streaming", "streamRecovery", "hedge"]))
        let hedge = try #require(routing["hedge"]?["properties"]?.objectValue)
        #expect(Set(hedge.keys) == ["afterMs", "tiers", "maxExtraCostPerRequestUSD", "maxHedgedShare"])
        #expect(schema["$defs"]?["feature"]?["properties"]?["routing"] != nil)
        #expect(schema["properties"]?["routing"] != nil)
    }

    // MARK: Hedging

    static let hedge: JSONValue = ["afterMs": 600, "tiers": ["third-party"], "maxExtraCostPerRequestUSD": 0.002, "maxHedgedShare": 0.1]

    @Test func hedgeIsReadAndAFeatureBlockReplacesTheDefaultsWhole() throws {
        let data = Self.withRouting { tree in
            tree.set(["routing", "hedge"], Self.hedge)
            tree.set(["features", "extract", "routing", "hedge"], ["afterMs": 900])
        }
        let document = try ConfigValidator.load(data).document
        #expect(document.routing(feature: "summarize")?.hedge
            == HedgeConfig(afterMs: 600, tiers: [.thirdParty], maxExtraCostPerRequestUSD: 0.002, maxHedgedShare: 0.1))
        #expect(document.routing(feature: "extract")?.hedge == HedgeConfig(afterMs: 900))
    }

    @Test func invalidHedgeEntriesNameTheirPaths() {
        let data = Self.withRouting { tree in
            tree.set(["features", "summarize", "routing"], ["hedge": [
                "afterMs": 0, "tiers": ["third-party", "third-party"], "maxExtraCostPerRequestUSD": -1, "maxHedgedShare": 1.5,
            ]])
        }
        let issues = Fixtures.errors(data).map { "\($0.path): \($0.message)" }
        let base = "features.summarize.routing.hedge"
        #expect(issues.contains { $0.hasPrefix("\(base).afterMs: must be more than 0 milliseconds") })
        #expect(issues.contains { $0.hasPrefix("\(base).tiers[1]: tier third-party is listed twice") })
        #expect(issues.contains { $0.hasPrefix("\(base).maxExtraCostPerRequestUSD: must be 0 or more dollars") })
        #expect(issues.contains { $0.hasPrefix("\(base).maxHedgedShare: must be more than 0 and at most 1") })
        let missing = Fixtures.errors(Self.withRouting { $0.set(["routing", "hedge"], ["tiers": ["on-device"]]) })
        #expect(missing.contains { $0.path.hasPrefix("routing.hedge") })
        let badTier = Fixtures.errors(Self.withRouting { $0.set(["routing", "hedge"], ["afterMs": 5, "tiers": ["moon"]]) })
        #expect(badTier.contains { $0.path.hasPrefix("routing.hedge.tiers") })
    }

    @Test func hedgeWarnsWhenPrivacyOrTimersLeaveNothingToRace() throws {
        let data = Self.withRouting { tree in
            tree.set(["routing", "hedge"], ["afterMs": 5000, "tiers": ["third-party"], "unknownCap": 1])
            tree.set(["features", "summarize", "privacy"], "sensitive")
            tree.set(["features", "summarize", "priority"], ["local-smollm2"])
        }
        let warnings = try ConfigValidator.load(data).warnings.map { "\($0.path): \($0.message)" }
        #expect(warnings.contains { $0.hasPrefix("routing.hedge.tiers: privacy class sensitive of feature summarize allows none") })
        #expect(warnings.contains { $0.hasPrefix("routing.hedge: feature summarize has one model") })
        #expect(warnings.contains { $0.hasPrefix("features.extract.routing.hedge.afterMs: 5000 ms is not shorter than attemptTimeoutMs (4000)") } == false,
            "the feature does not set its own hedge, so the warning names the document's block")
        #expect(warnings.contains { $0.hasPrefix("routing.hedge.afterMs: 5000 ms is not shorter than attemptTimeoutMs (4000)") })
        #expect(warnings.contains { $0.hasPrefix("routing.hedge.unknownCap: unknown key") })
    }

    @Test func hedgeShowsInDiffsAndSurvivesFirebase() throws {
        let old = try ConfigValidator.load(Self.withRouting()).document
        let new = try ConfigValidator.load(Self.withRouting { $0.set(["features", "extract", "routing", "hedge"], Self.hedge) }).document
        #expect(ConfigDiff.changes(from: old, to: new).map(\.path) == ["features.extract.routing"])
        #expect(ConfigDiff.render(from: old, to: new).contains("\"afterMs\":600"))
        let imported = try FirebaseRemoteConfig.importTemplate(try FirebaseRemoteConfig.exportTemplate(new)).document
        #expect(imported.features["extract"]?.routing?.hedge == new.features["extract"]?.routing?.hedge)
        #expect(imported.features["extract"]?.routing?.hedge?.tiers == [.thirdParty])
    }
}
