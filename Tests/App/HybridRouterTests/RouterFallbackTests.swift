@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

@Suite("Router: priority walk, skips and fallback rules")
struct RouterFallbackTests {
    @Test("walks the priority order: a failing first model falls back to the second, the third is never called")
    func priorityOrderWalk() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 503, detail: "overloaded"))])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("from b")])
        let c = ScriptedLanguageModel(id: "c", script: [.reply("from c")])
        let router = try Fixtures.router([a, b, c])
        let result = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "b")
        #expect(result.response.text == "from b")
        #expect(result.attempts.map(\.modelID) == ["a", "b"])
        #expect(result.attempts[0].outcome == .failed(.serverError(model: "a", status: 503, detail: "overloaded")))
        #expect(result.attempts[1].outcome == .served)
        #expect(c.callCount == 0)
        // The feature's rendered prompt and instructions reached the model.
        let request = try #require(b.requests.first)
        #expect(request.instructions == "You write short summaries.")
        #expect(request.messages == [.user("Summarize: " + Fixtures.input["input"]!)])
        #expect(request.options.maxOutputTokens == 64)
    }

    @Test("an unavailable model is skipped with its reason and never called")
    func unavailableSkipped() async throws {
        let reason = UnavailabilityReason.notInstalled(what: "llama-server", fix: "make setup")
        let a = ScriptedLanguageModel(id: "a", availability: .unavailable(reason), script: [.reply("never")])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("ok")])
        let result = try await Fixtures.router([a, b]).generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "b")
        #expect(result.attempts[0].outcome == .skipped(.unavailable(reason)))
        #expect(a.callCount == 0)
    }

    @Test("sensitive input goes only on device; standard up to private cloud; an override may only tighten")
    func privacyClasses() async throws {
        func models() -> [ScriptedLanguageModel] {
            [
                ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("cloud")),
                ScriptedLanguageModel(id: "private", tier: .privateCloud, whenExhausted: .reply("private")),
                ScriptedLanguageModel(id: "device", tier: .onDevice, whenExhausted: .reply("device")),
            ]
        }
        let sensitiveModels = models()
        let sensitive = try await Fixtures.router(sensitiveModels, privacy: .sensitive)
            .generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(sensitive.servedBy.id == "device")
        #expect(sensitive.attempts.prefix(2).map(\.outcome) == [
            .skipped(.privacy(tier: .thirdParty, privacy: .sensitive)),
            .skipped(.privacy(tier: .privateCloud, privacy: .sensitive)),
        ])
        #expect(sensitiveModels[0].callCount == 0 && sensitiveModels[1].callCount == 0)

        let standard = try await Fixtures.router(models(), privacy: .standard).generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(standard.servedBy.id == "private")

        let open = try Fixtures.router(models(), privacy: .open)
        #expect(try await open.generate(feature: Fixtures.feature, input: Fixtures.input).servedBy.id == "cloud")
        let tightened = try await open.generate(feature: Fixtures.feature, input: Fixtures.input, privacy: .sensitive)
        #expect(tightened.servedBy.id == "device")

        let loosened = try await Fixtures.router(models(), privacy: .sensitive)
            .generate(feature: Fixtures.feature, input: Fixtures.input, privacy: .open)
        #expect(loosened.servedBy.id == "device")
    }

    @Test("context window exceeded moves to the next model with a LARGER window; too-small windows are skipped up front")
    func contextWindowFallback() async throws {
        let mid = ScriptedLanguageModel(id: "mid", contextWindow: 1000, script: [.fail(.contextWindowExceeded(model: "mid", detail: "1200 > 1000"))])
        let smaller = ScriptedLanguageModel(id: "smaller", contextWindow: 800, script: [.reply("never")])
        let large = ScriptedLanguageModel(id: "large", contextWindow: 100_000, script: [.reply("large")])
        let result = try await Fixtures.router([mid, smaller, large]).generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "large")
        #expect(result.attempts[1].outcome == .skipped(.windowNotLarger(window: 800, mustExceed: 1000)))
        #expect(smaller.callCount == 0)

        let tiny = ScriptedLanguageModel(id: "tiny", contextWindow: 64, script: [.reply("never")])
        let big = ScriptedLanguageModel(id: "big", contextWindow: 8192, script: [.reply("big")])
        let long = ["input": String(repeating: "word ", count: 200)]
        let skipped = try await Fixtures.router([tiny, big]).generate(feature: Fixtures.feature, input: long)
        #expect(skipped.servedBy.id == "big")
        guard case .contextWindowTooSmall(let needed, 64)? = skipped.attempts[0].outcome.skipReason else {
            Issue.record("expected a context-window skip, got \(skipped.attempts[0].outcome)")
            return
        }
        #expect(needed > 64 + 250)
        #expect(tiny.callCount == 0)
    }

    @Test("rate limited falls back and rests the model until Retry-After passes")
    func rateLimitCooldown() async throws {
        let clock = TestClock()
        let a = ScriptedLanguageModel(
            id: "a", script: [.fail(.rateLimited(model: "a", retryAfter: .seconds(60), retryable: true, detail: "429"))],
            whenExhausted: .reply("a again"))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply("b"))
        let router = try Fixtures.router([a, b], clock: clock)
        let first = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(first.servedBy.id == "b")

        let second = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(second.servedBy.id == "b")
        guard case .coolingDown(let remaining)? = second.attempts[0].outcome.skipReason else {
            Issue.record("expected a cooldown skip, got \(second.attempts[0].outcome)")
            return
        }
        #expect(remaining > .seconds(50) && remaining <= .seconds(60))
        #expect(a.callCount == 1)

        clock.advance(.seconds(61))
        let third = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(third.servedBy.id == "a")
        #expect(a.callCount == 2)
    }

    @Test("a model's own timeout falls back to the next model")
    func timeoutFallsBack() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.timeout(model: "a", after: .seconds(5), phase: .firstByte))])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("b")])
        let result = try await Fixtures.router([a, b]).generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "b")
        #expect(result.attempts[0].outcome == .failed(.timeout(model: "a", after: .seconds(5), phase: .firstByte)))
    }

    @Test("a refusal stops by default and falls back when the policy says so")
    func refusalConfigurable() async throws {
        let refusal = GenerationError.refusal(model: "a", detail: "content filter")
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .fail(refusal))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply("b"))
        let router = try Fixtures.router([a, b])
        do {
            _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
            Issue.record("expected the refusal to stop the walk")
        } catch {
            guard error.code == .stopped else {
                Issue.record("expected .stopped, got \(error)")
                return
            }
            #expect(error.generationError == refusal)
            #expect(error.attempts.count == 1)
            #expect(error.description.contains("does not fall back on refusal"))
        }
        #expect(b.callCount == 0)

        let policy = RouterDefaults(routing: RoutingConfig(onError: ["refusal": .fallback]))
        let result = try await Fixtures.router([a, b], policy: policy).generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "b")
        #expect(result.attempts[0].outcome == .failed(refusal))
    }

    @Test("an authentication failure falls back and is reported loudly as an incident")
    func authenticationReported() async throws {
        let a = ScriptedLanguageModel(id: "a", tier: .thirdParty, script: [.fail(.authentication(model: "a", detail: "401 invalid key"))])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("b")])
        let log = IncidentLog()
        let result = try await Fixtures.router([a, b], incidents: log).generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.servedBy.id == "b")
        #expect(result.attempts[0].outcome == .failed(.authentication(model: "a", detail: "401 invalid key")))
        #expect(log.incidents == [.authenticationFailed(model: "a", detail: "401 invalid key")])
        #expect(log.incidents[0].description.contains("check its API key"))
    }

    @Test("when every model is skipped or fails, the error lists each model with its reason")
    func noEligibleModelListsReasons() async throws {
        let a = ScriptedLanguageModel(id: "a", tier: .thirdParty, whenExhausted: .reply("x"))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .fail(.serverError(model: "b", status: 500, detail: "boom")))
        let router = try Fixtures.router([a, b], priority: ["a", "ghost", "b"], privacy: .sensitive)
        do {
            _ = try await router
                .generate(feature: Fixtures.feature, input: Fixtures.input)
            Issue.record("expected noEligibleModel")
        } catch {
            guard error.code == .noEligibleModel else {
                Issue.record("expected noEligibleModel, got \(error)")
                return
            }
            let attempts = error.attempts
            #expect(attempts.map(\.modelID) == ["a", "ghost", "b"])
            #expect(attempts[1].outcome == .skipped(.unknownModel))
            #expect(error.description.contains("not allowed for sensitive"))
            #expect(error.description.contains("server error 500"))
        }
    }

    @Test("input shorter than the feature's minimum is declined without calling any model")
    func minimumInputDecline() async throws {
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("x"))
        let policy = RouterDefaults(minimumInputCharacters: [Fixtures.feature: 20])
        let router = try Fixtures.router([a], policy: policy)
        await #expect(throws: RouterError.inputTooShort(feature: Fixtures.feature, minimum: 20, actual: 5)) {
            try await router.generate(feature: Fixtures.feature, input: ["input": "  short \n"])
        }
        #expect(a.callCount == 0)
        #expect(try await router.generate(feature: Fixtures.feature, input: Fixtures.input).response.text == "x")
    }

    @Test("an unknown feature and a missing template variable fail before any model call, with actionable messages")
    func unknownFeatureAndRenderFailure() async throws {
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("x"))
        let router = try Fixtures.router([a])
        do {
            _ = try await router.generate(feature: "translate", input: Fixtures.input)
            Issue.record("expected unknownFeature")
        } catch {
            #expect(error == .unknownFeature("translate", known: [Fixtures.feature]))
            #expect(error.description.contains("features: summarize"))
        }
        do {
            _ = try await router.generate(feature: Fixtures.feature, input: ["text": "wrong key"])
            Issue.record("expected renderFailed")
        } catch {
            guard error.code == .renderFailed, error.renderError != nil else {
                Issue.record("expected renderFailed, got \(error)")
                return
            }
            #expect(error.description.contains("no value for template variable \"input\""))
        }
        #expect(a.callCount == 0)
    }
}
