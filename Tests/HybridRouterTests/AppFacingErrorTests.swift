import Foundation
import HybridConfig
import HybridCore
import HybridRouter
import HybridTestSupport
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
            // The user reads a sentence; the developer's log gets every path.
            #expect(error.localizedDescription == "The app's settings could not be loaded.")
            #expect(error.description.contains("older-phone"))
        }
    }

    @Test("errors read as a short sentence for the user, with what to do; description keeps the diagnostic")
    func errorsForPeopleAndForDevelopers() async throws {
        let generation = GenerationError.timeout(model: "local", after: .seconds(2), phase: .firstByte)
        #expect(generation.localizedDescription == "The service could not be reached.")
        #expect(generation.description.contains("local"))

        // A router whose only model cannot be reached: the message is the user's, the diagnostic names the URL.
        let document = Fixtures.document(models: ["a": Fixtures.modelConfig(tier: .onDevice)], priority: ["a"])
        let router = try Router(config: .fixed(document), installId: "i", onIncident: { _ in })
        do {
            _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
            Issue.record("nothing listens on port 9")
        } catch {
            #expect(error.localizedDescription == "The assistant could not be reached.", "\(error.description)")
            #expect(error.recoverySuggestion == "Check your connection and try again.")
            #expect((error as NSError).localizedRecoverySuggestion == "Check your connection and try again.")
            #expect(!error.localizedDescription.contains("127.0.0.1"))
            #expect(error.description.contains("127.0.0.1:9"), "the developer's diagnostic keeps the URL")
        }
        let refusing = ScriptedLanguageModel(id: "a", whenExhausted: .fail(.refusal(model: "a", detail: "policy")))
        let strict = try Router(config: .fixed(document), models: .models(["a": refusing]), installId: "i", onIncident: { _ in })
        do {
            _ = try await strict.generate(feature: Fixtures.feature, input: Fixtures.input)
            Issue.record("the model refuses")
        } catch {
            #expect(error.localizedDescription == "This request can't be answered." && error.recoverySuggestion == nil)
            #expect(!(error as any Error).localizedDescription.contains("The operation could not be completed"))
        }
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
