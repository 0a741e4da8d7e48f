import Foundation
import HybridConfig
import HybridCore
import HybridRouter
import Testing

/// The app API as an app developer meets it: a config that does not validate never reaches a router, errors read
/// as their messages through `localizedDescription`, and a stream's `catch` is typed.
@Suite struct AppFacingErrorTests {
    /// An override naming `older-phone` where the condition is `older-phones`, and a misspelt test (`oneof`), as a
    /// developer building a document in code might ship it (documents are not `Decodable`: only the validator reads
    /// JSON).
    static let misspelt = #"""
        {"version": 3,
         "models": {"local": {"kind": "openai-compatible", "baseURL": "http://127.0.0.1:9/v1", "model": "m", "tier": "on-device",
                              "pricing": {"inputPerMillion": 0, "outputPerMillion": 0}, "contextWindow": 4096,
                              "capabilities": {"structuredOutput": true, "streaming": true}}},
         "conditions": [{"name": "older-phones", "labels": {"deviceClass": {"oneof": ["phone-2019"]}}}],
         "features": {"summarize": {"variants": {"v": {"template": "{{input}}"}}, "defaultVariant": "v",
                                    "priority": ["local"], "privacy": "open",
                                    "overrides": {"older-phone": {"priority": ["local"]}}}}}
        """#

    @Test func aDocumentThatDoesNotValidateIsRefusedAtTheInitialiserWithEveryPath() throws {
        // Reading alone accepts it: the unknown key is dropped and the override's name is not checked.
        let decoded = try ConfigValidator.decode(Data(Self.misspelt.utf8))
        #expect(throws: ConfigError.self) { _ = try Router(config: .fixed(decoded), models: .models([:]), installId: "i") }
        do {
            _ = try Router(config: .fixed(decoded), installId: "i")
            Issue.record("the router accepted a document that does not validate")
        } catch {
            let paths = error.issues.map(\.path)
            #expect(paths.contains("conditions[0].labels.deviceClass"), "\(paths)")
            #expect(paths.contains("features.summarize.overrides.older-phone"), "\(paths)")
            #expect(error.localizedDescription == error.description)
            #expect(error.localizedDescription.contains("older-phone"))
        }
    }

    @Test func routerAndGenerationErrorsReadAsTheirMessages() {
        let generation = GenerationError.timeout(model: "local", after: .seconds(2), phase: .firstByte)
        #expect(generation.localizedDescription == generation.description)
        let routed = RouterError.noEligibleModel(feature: "summarize", attempts: [])
        #expect(routed.localizedDescription == routed.description)
        #expect(!routed.localizedDescription.contains("The operation could not be completed"))
        #expect((routed as any Error).localizedDescription == routed.description)
    }

    @Test func aStreamsCatchIsTypedAndCarriesTheCode() async throws {
        let document = Fixtures.document(models: ["a": Fixtures.modelConfig(tier: .onDevice)], priority: ["a"])
        let router = try Router(config: .fixed(document), models: .models([:]), installId: "i", onIncident: { _ in })
        var code: RouterError.Code?
        do {
            for try await _ in router.stream(feature: "nope", input: Fixtures.input) {}
        } catch {
            code = error.code  // no cast: the stream throws RouterError only
        }
        #expect(code == .unknownFeature)
    }
}
