import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Synchronization
import Testing

@Suite("Router: rollouts, config refresh, cache, truncation and streaming")
struct RouterConfigCacheStreamTests {
    @Test("the rollout bucket picks the variant deterministically per install id")
    func rolloutVariantPerInstall() async throws {
        let rollout = RolloutConfig(seed: "bullets-test", arms: [RolloutArm(name: "treatment", percentage: 50, variant: "bullets")])
        // Find one install inside the arm and one outside, using the documented bucketing.
        let ids = (0..<200).map { "install-\($0)" }
        let inArm = try #require(ids.first { RolloutBucketing.arm(for: $0, feature: Fixtures.feature, rollout: rollout) != nil })
        let outOfArm = try #require(ids.first { RolloutBucketing.arm(for: $0, feature: Fixtures.feature, rollout: rollout) == nil })
        let doc = Fixtures.document(models: ["a": Fixtures.modelConfig()], priority: ["a"], rollout: rollout)

        for (installId, expectedVariant, expectedArm, prefix) in [
            (inArm, "bullets", Optional("treatment"), "Bullets: "), (outOfArm, "plain", nil, "Summarize: "),
        ] {
            let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("ok"))
            let router = try Router(config: .fixed(doc), models: .models(["a": a]), installId: installId)
            for _ in 0..<2 {
                let result = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
                #expect(result.variant == expectedVariant)
                #expect(result.rolloutArm == expectedArm)
            }
            #expect(a.requests.allSatisfy { $0.messages.first?.content.hasPrefix(prefix) == true })
            // The variant's own instructions replace the feature's.
            let expectedInstructions = expectedVariant == "bullets" ? "You write bullet points." : "You write short summaries."
            #expect(a.requests.first?.instructions == expectedInstructions)
        }
    }

    @Test("a config offered to the loader changes the served order and the prompt at the next request")
    func configRefreshTakesEffect() async throws {
        let models = ["a": Fixtures.modelConfig(), "b": Fixtures.modelConfig()]
        let v1 = Fixtures.document(version: 1, models: models, priority: ["a", "b"])
        let v2 = Fixtures.document(version: 2, models: models, priority: ["b", "a"], plainTemplate: "TL;DR {{input}}")
        let loader = ConfigLoader(bundled: try ConfigValidator.load(v1.encodedJSON()), sourceURL: nil, fetcher: nil)
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("a"))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply("b"))
        let router = try Router(config: .loader(loader), models: .models(["a": a, "b": b]), installId: "i")

        #expect(try await router.generate(feature: Fixtures.feature, input: Fixtures.input).servedBy.id == "a")
        let resolution = await loader.offer(
            ConfigFetcher.FetchedPayload(url: "https://config.invalid/h.json", status: 200, body: v2.encodedJSON(), etag: nil, signature: nil))
        #expect(resolution.outcome == .updated)
        let after = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(after.servedBy.id == "b")
        #expect(after.attempts.map(\.modelID) == ["b"])
        #expect(b.requests.first?.messages.first?.content.hasPrefix("TL;DR ") == true)
    }

    @Test("a factory-built model is reused across requests and rebuilt when its config entry changes")
    func factoryModelsMemoized() async throws {
        let builds = BuildCounter()
        let provider = RouterModelProvider.factory { id, config in
            builds.increment()
            return ScriptedLanguageModel(id: id, tier: config.tier, contextWindow: config.contextWindow, whenExhausted: .reply("\(config.contextWindow)"))
        }
        let v1 = Fixtures.document(version: 1, models: ["a": Fixtures.modelConfig(window: 4096)], priority: ["a"])
        let v2 = Fixtures.document(version: 2, models: ["a": Fixtures.modelConfig(window: 8192)], priority: ["a"])
        let loader = ConfigLoader(bundled: try ConfigValidator.load(v1.encodedJSON()), sourceURL: nil, fetcher: nil)
        let router = try Router(config: .loader(loader), models: provider, installId: "i")
        _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        let second = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(second.response.text == "4096")
        #expect(builds.value == 1)
        await loader.offer(ConfigFetcher.FetchedPayload(url: "https://c.invalid/h.json", status: 200, body: v2.encodedJSON(), etag: nil, signature: nil))
        #expect(try await router.generate(feature: Fixtures.feature, input: Fixtures.input).response.text == "8192")
        #expect(builds.value == 2)
    }

    @Test("a cached response is served within the TTL without calling the model, and expires after it")
    func cacheWithinTTL() async throws {
        let clock = TestClock()
        let cache = InMemoryRouterCache(capacity: 10, ttl: .seconds(60), now: clock.now)
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("answer"))
        let router = try Fixtures.router([a], cache: cache, clock: clock)

        let first = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(!first.fromCache)
        let second = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(second.fromCache)
        #expect(second.response.text == "answer")
        #expect(second.attempts.map(\.outcome) == [.servedFromCache])
        #expect(a.callCount == 1)

        // A different input is a different key.
        _ = try await router.generate(feature: Fixtures.feature, input: ["input": "Another text entirely, long enough."])
        #expect(a.callCount == 2)

        clock.advance(.seconds(61))
        let expired = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(!expired.fromCache)
        #expect(a.callCount == 3)
    }

    @Test("cache keys change with feature, variant, model and request content, and the LRU evicts the oldest")
    func cacheKeysAndEviction() async throws {
        let request = GenerationRequest(prompt: "hello", instructions: "be brief")
        let base = RouterCacheKey(feature: "f", variant: "v", modelID: "m", request: request)
        #expect(base == RouterCacheKey(feature: "f", variant: "v", modelID: "m", request: request))
        #expect(base.hex.count == 64)
        var withDeadline = request
        withDeadline.deadline = .now + .seconds(5)
        #expect(base == RouterCacheKey(feature: "f", variant: "v", modelID: "m", request: withDeadline))
        var otherOptions = request
        otherOptions.options.temperature = 0.7
        let others = [
            RouterCacheKey(feature: "g", variant: "v", modelID: "m", request: request),
            RouterCacheKey(feature: "f", variant: "w", modelID: "m", request: request),
            RouterCacheKey(feature: "f", variant: "v", modelID: "n", request: request),
            RouterCacheKey(feature: "f", variant: "v", modelID: "m", request: GenerationRequest(prompt: "hello!", instructions: "be brief")),
            RouterCacheKey(feature: "f", variant: "v", modelID: "m", request: otherOptions),
        ]
        #expect(Set(others + [base]).count == 6)

        let cache = InMemoryRouterCache(capacity: 2, ttl: .seconds(60))
        let response = GenerationResponse(
            text: "t", servedBy: ModelIdentity(id: "m", tier: .onDevice), usage: TokenUsage(promptTokens: 1, completionTokens: 1),
            timing: GenerationTiming(timeToFirstToken: nil, total: .zero), finishReason: .stop)
        await cache.store(response, for: others[0])
        await cache.store(response, for: others[1])
        _ = await cache.response(for: others[0])  // others[1] is now least recently used
        await cache.store(response, for: others[2])
        #expect(await cache.response(for: others[0]) != nil)
        #expect(await cache.response(for: others[1]) == nil)
        #expect(await cache.response(for: others[2]) != nil)
        #expect(cache.count == 2)
    }

    @Test("truncateInputTo caps each input; trimLongestInputToFit cuts the longest input to the largest allowed window")
    func truncation() async throws {
        let a = ScriptedLanguageModel(id: "a", contextWindow: 300, whenExhausted: .reply("ok"))
        let capped = try await Fixtures.router([a]).generate(
            feature: Fixtures.feature, input: ["input": "abcdefghijklmnop"], truncateInputTo: 10)
        #expect(capped.truncatedInputs == ["input"])
        #expect(a.requests.last?.messages.first?.content == "Summarize: abcdefghi…")

        let long = ["input": String(repeating: "lorem ipsum ", count: 500)]
        await #expect(throws: RouterError.self) {
            try await Fixtures.router([a]).generate(feature: Fixtures.feature, input: long)
        }
        let policy = RouterDefaults(truncation: .trimLongestInputToFit)
        let fitted = try await Fixtures.router([a], policy: policy).generate(feature: Fixtures.feature, input: long)
        #expect(fitted.truncatedInputs == ["input"])
        #expect(fitted.servedBy.id == "a")
        let sent = try #require(a.requests.last)
        let tokens = TokenEstimator.estimate(sent.instructions ?? "") + TokenEstimator.estimate(sent.messages[0].content)
        #expect(Double(tokens) * 1.15 + 64 <= 300)
        #expect(sent.messages[0].content.hasSuffix("…"))
        #expect(sent.messages[0].content.count > 300)  // cut to fit, not to nothing
    }

    @Test("streaming emits skipped/failed attempts, then deltas, then the served attempt and completed")
    func streamingOrder() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 500, detail: "boom"))])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("Hello there world")])
        let router = try Fixtures.router([a, b], deadlineMs: 30_000)
        var events: [RoutedStreamEvent] = []
        for try await event in router.stream(feature: Fixtures.feature, input: Fixtures.input) { events.append(event) }

        guard case .attempt(let failed) = events.first, failed.modelID == "a",
            failed.outcome.error?.kind == .serverError
        else {
            Issue.record("first event should be a's failure, got \(String(describing: events.first))")
            return
        }
        let deltas = events.compactMap { if case .delta(let text) = $0 { text } else { nil } }
        #expect(deltas.joined() == "Hello there world")
        #expect(deltas.count == 3)
        guard events.count == 6, case .attempt(let served) = events[4], case .completed(let routed) = events[5] else {
            Issue.record("expected attempt, 3 deltas, served attempt, completed; got \(events)")
            return
        }
        #expect(served.modelID == "b" && served.outcome == .served)
        #expect(routed.servedBy.id == "b")
        #expect(routed.attempts.map(\.modelID) == ["a", "b"])
    }

    @Test("with stream recovery off, a stream that fails after text was delivered does not fall back")
    func streamNoFallbackAfterDelta() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.partialThenFail(["Hel"], .serverError(model: "a", status: nil, detail: "reset"))])
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply("b"))
        var deltas: [String] = []
        let router = try Fixtures.router([a, b], policy: RouterDefaults(routing: RoutingConfig(streamRecovery: .off)))
        do {
            for try await event in router.stream(feature: Fixtures.feature, input: Fixtures.input) {
                if case .delta(let text) = event { deltas.append(text) }
            }
            Issue.record("expected streamInterrupted")
        } catch {  // typed: the stream throws RouterError only
            guard error.code == .streamInterrupted, error.generationError?.kind == .serverError else {
                Issue.record("expected streamInterrupted, got \(error)")
                return
            }
            #expect(error.attempts.map(\.modelID) == ["a"])
        }
        #expect(deltas == ["Hel"])
        #expect(b.callCount == 0)
    }

    @Test("a stream past its deadline is cut and ends with deadlineExceeded")
    func streamDeadline() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.hang])
        var attempts: [RouteAttempt] = []
        let router = try Fixtures.router([a], deadlineMs: 100)
        do {
            for try await event in router.stream(feature: Fixtures.feature, input: Fixtures.input) {
                if case .attempt(let attempt) = event { attempts.append(attempt) }
            }
            Issue.record("expected deadlineExceeded")
        } catch {  // typed: the stream throws RouterError only
            guard error.code == .deadlineExceeded else {
                Issue.record("expected deadlineExceeded, got \(error)")
                return
            }
        }
        #expect(attempts.map(\.outcome) == [.cancelledAtDeadline])
    }
}

/// Counts factory builds across tasks.
final class BuildCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

