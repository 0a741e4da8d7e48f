import Foundation
import HybridAI
import HybridTestSupport
import Testing

/// Errors as an app developer meets them, through the public API only: a sentence for the user with what to do,
/// the diagnostic for the log, and a stream's `catch` that stays typed.
@Suite struct AppErrorTests {
    /// One feature over one model at the discard port, where nothing listens.
    static func document() -> HybridConfigDocument {
        let model = ModelConfig(
            kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "m", tier: .onDevice, pricing: .free,
            contextWindow: 4096, capabilities: .init(structuredOutput: true, streaming: true))
        let feature = FeatureConfig(
            variants: ["v": PromptVariant(template: "{{input}}")], defaultVariant: "v", priority: ["a"], privacy: .open)
        return HybridConfigDocument(version: 1, models: ["a": model], features: ["summarize": feature])
    }

    @Test("errors read as a short sentence for the user, with what to do; description keeps the diagnostic")
    func errorsForPeopleAndForDevelopers() async throws {
        let generation = GenerationError.timeout(model: "local", after: .seconds(2), phase: .firstByte)
        #expect(generation.localizedDescription == "The service could not be reached.")
        #expect(generation.description.contains("local"))

        // A router whose only model cannot be reached: the message is the user's, the diagnostic names the URL.
        let document = Self.document()
        let router = try Router(config: .fixed(document), installId: "i", onIncident: { _ in })
        do {
            _ = try await router.generate(feature: "summarize", input: ["input": "hello"])
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
            _ = try await strict.generate(feature: "summarize", input: ["input": "hello"])
            Issue.record("the model refuses")
        } catch {
            #expect(error.localizedDescription == "This request can't be answered." && error.recoverySuggestion == nil)
            #expect(!(error as any Error).localizedDescription.contains("The operation could not be completed"))
        }
    }

    @Test func aStreamsCatchIsTypedAndCarriesTheCode() async throws {
        let document = Self.document()
        let router = try Router(config: .fixed(document), models: .models([:]), installId: "i", onIncident: { _ in })
        var code: RouterError.Code?
        do {
            for try await _ in router.stream(feature: "nope", input: ["input": "hello"]) {}
        } catch {
            code = error.code  // no cast: the stream throws RouterError only
        }
        #expect(code == .unknownFeature)
    }
}
