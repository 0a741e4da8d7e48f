@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

/// The app's defaults are a routing block in the config's vocabulary, one layer under the config's.
@Suite struct RouterDefaultsTests {
    @Test("a routing block the app writes in code is checked as a config's is, with paths naming RouterDefaults")
    func appRoutingIsValidated() throws {
        let policy = RouterDefaults(routing: RoutingConfig(onError: ["refusl": .fallback], quotaCooldownMs: 0, hedge: HedgeConfig(afterMs: 300)))
        let model = ScriptedLanguageModel(id: "a", script: [.reply("a")])
        do {
            _ = try Router(models: [.model(model)], policy: policy)
            Issue.record("an invalid app routing block was accepted")
        } catch {
            #expect(error.kind == .invalid)
            #expect(error.issues.map(\.path) == [
                "RouterDefaults.routing.onError.refusl", "RouterDefaults.routing.quotaCooldownMs", "RouterDefaults.routing.hedge",
            ])
        }
    }

    @Test("layers: the built-in block, then the app's, then the config's, field by field")
    func layersResolveFieldByField() {
        let app = RouterDefaults(routing: RoutingConfig(
            onError: ["refusal": .fallback, "timeout": .stop], attemptTimeoutMs: 900, rateLimitCooldownMs: 5_000))
        let feature = RoutingConfig(onError: ["timeout": .fallback], whenChecksFail: .throwError, hedge: HedgeConfig(afterMs: 300))
        let rules = RoutingWalk.Rules(routing: feature, deadlineMs: nil, privacy: nil, defaults: app)
        #expect(rules.action(for: .refusal) == .fallback)  // the app's word over the built-in stop
        #expect(rules.action(for: .cancelled) == .stop)  // the built-in, which nobody overrode
        #expect(rules.action(for: .timeout) == .fallback)  // the feature's over the app's
        #expect(rules.attemptTimeout == .milliseconds(900) && rules.rateLimitCooldown == .seconds(5))
        #expect(rules.quotaCooldown == .seconds(900) && rules.whenChecksFail == .throwError)
        #expect(rules.hedge?.after == .milliseconds(300))
        // 0 in a higher layer removes the app's per-attempt timeout.
        let none = RoutingWalk.Rules(routing: RoutingConfig(attemptTimeoutMs: 0), deadlineMs: nil, privacy: nil, defaults: app)
        #expect(none.attemptTimeout == nil)
    }
}
