@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

@Suite("Router.prewarm")
struct RouterPrewarmTests {
    @Test("prepares the first model the privacy class allows that is available, and only that one")
    func preparesTheModelThatWouldServe() async throws {
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty)
        let missing = ScriptedLanguageModel(id: "missing", availability: .unavailable(.notInstalled(what: "llama-server", fix: "make setup")))
        let local = ScriptedLanguageModel(id: "local")
        let second = ScriptedLanguageModel(id: "second")
        let router = try Fixtures.router([cloud, missing, local, second], privacy: .sensitive)

        #expect(try await router.prewarm(feature: Fixtures.feature) == "local")
        #expect([cloud.preparations, missing.preparations, local.preparations, second.preparations] == [0, 0, 1, 0])
        #expect(local.callCount == 0, "prewarming generates nothing through the router")
    }

    @Test("a model that fails to prepare is passed over, as a request would pass it over")
    func failedPreparationFallsThrough() async throws {
        let broken = ScriptedLanguageModel(id: "broken")
        broken.setPrepareFailure(.unavailable(model: "broken", reason: .notRunning("llama-server exited")))
        let next = ScriptedLanguageModel(id: "next")
        let router = try Fixtures.router([broken, next])
        #expect(try await router.prewarm(feature: Fixtures.feature) == "next")
        #expect(next.preparations == 1)

        next.setPrepareFailure(.timeout(model: "next", after: .seconds(1), phase: .connect))
        #expect(try await router.prewarm(feature: Fixtures.feature) == nil)
    }

    @Test("an unknown feature is an error naming the known ones")
    func unknownFeature() async throws {
        let router = try Fixtures.router([ScriptedLanguageModel(id: "local")])
        await #expect(throws: RouterError.self) { try await router.prewarm(feature: "nope") }
    }
}
