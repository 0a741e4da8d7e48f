import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridEvents
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
@testable import HybridVirtualTime
import Testing

/// The router's shell for hedged requests on the virtual clock: two calls really run at once, the loser's task is
/// cancelled (the scripted model sees the cancellation), both attempts are reported, and the loser is billed.
@Suite("Router: hedged requests")
struct RouterHedgeTests {
    static func router(
        _ models: [ScriptedLanguageModel], hedge: HedgeConfig, configs: [String: ModelConfig] = [:], clock: TestClock,
        ledger: (any SpendLedger)? = nil, eventSink: (any RouteEventSink)? = nil, streaming: RoutingConfig.StreamingMode? = nil
    ) -> Router {
        var configsByID: [String: ModelConfig] = [:]
        for model in models {
            model.run(on: clock.virtual)
            configsByID[model.id] = configs[model.id] ?? Fixtures.modelConfig(tier: model.tier)
        }
        var document = Fixtures.document(models: configsByID, priority: models.map(\.id))
        document.features[Fixtures.feature]?.routing = RoutingConfig(streaming: streaming, hedge: hedge)
        return Router(
            unvalidated: .fixed(document), models: .models(Dictionary(uniqueKeysWithValues: models.map { ($0.id, $0 as any LanguageModel) })),
            installId: "install-1", spendLedger: ledger, clock: clock.routerClock, eventSink: eventSink)
    }

    /// Starts `request`, waits until `first` (the model that will be raced) is called, checks `beforeHedge`, moves
    /// the virtual clock through the hedge time `afterMs` and returns what the request returned.
    static func pastTheHedge<T: Sendable>(
        afterMs: Int, clock: TestClock, first: ScriptedLanguageModel, beforeHedge: () -> Void = {},
        _ request: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let start = clock.virtual.now
        let task = Task { try await request() }
        await first.waitUntil { $0.calls == 1 }
        beforeHedge()
        clock.virtual.expire(through: start + .milliseconds(afterMs))
        return try await task.value
    }

    @Test("a device call still running at the hedge time is raced by the cloud, which serves; the device call is cancelled")
    func cloudWinsTheRace() async throws {
        let device = ScriptedLanguageModel(id: "device", script: [.hang])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply("from the cloud", after: .milliseconds(300))])
        let clock = TestClock()
        let router = Self.router([device, cloud], hedge: HedgeConfig(afterMs: 500), clock: clock)
        let result = try await Self.pastTheHedge(
            afterMs: 500, clock: clock, first: device, beforeHedge: { #expect(cloud.callCount == 0) },
            { try await router.generate(feature: Fixtures.feature, input: Fixtures.input) })
        #expect(result.response.text == "from the cloud")
        #expect(result.attempts.map(\.modelID) == ["device", "cloud"])
        #expect(result.attempts.map(\.outcome) == [.lostRace, .served])
        #expect(result.attempts[1].startedAt == .milliseconds(500))
        #expect(result.attempts[0].duration == .milliseconds(800))
        await device.waitUntil { $0.cancellations == 1 }
    }

    @Test("a call answering before the hedge time is not raced")
    func fastAnswerIsNotRaced() async throws {
        let device = ScriptedLanguageModel(id: "device", script: [.reply("on device", after: .milliseconds(200))])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("cloud"))
        let router = Self.router([device, cloud], hedge: HedgeConfig(afterMs: 500), clock: TestClock())
        let result = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.response.text == "on device")
        #expect(result.attempts.map(\.outcome) == [.served])
        #expect(cloud.callCount == 0)
    }

    @Test("the cancelled loser's prompt is billed to the ledger and shows as its attempt's estimated usage")
    func loserIsBilled() async throws {
        let pricing = ModelPricing(inputPerMillion: 1_000, outputPerMillion: 1_000)
        let slow = ScriptedLanguageModel(id: "slow", tier: .privateCloud, script: [.hang])
        let fast = ScriptedLanguageModel(
            id: "fast", tier: .privateCloud, script: [.reply("fast", usage: TokenUsage(promptTokens: 5, completionTokens: 5), after: .milliseconds(50))])
        let ledger = InMemorySpendLedger()
        let clock = TestClock()
        let configs = ["slow": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing), "fast": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing)]
        let router = Self.router([slow, fast], hedge: HedgeConfig(afterMs: 100), configs: configs, clock: clock, ledger: ledger)
        let result = try await Self.pastTheHedge(afterMs: 100, clock: clock, first: slow) {
            try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        }
        let lost = try #require(result.attempts.first { $0.outcome == .lostRace })
        let usage = try #require(lost.usage)
        #expect(usage.isEstimated && usage.promptTokens > 0 && usage.completionTokens == 0)
        let spend = try await ledger.spendRecords(month: BillingMonth(containing: clock.virtual.routerClock.date()))
        let slowSpend = spend.filter { $0.modelID == "slow" }.reduce(0) { $0 + $1.usd }
        #expect(abs(slowSpend - Double(usage.promptTokens) * 1_000 / 1_000_000) < 1e-12)
        #expect(abs(spend.filter { $0.modelID == "fast" }.reduce(0) { $0 + $1.usd } - 0.01) < 1e-12)
    }

    @Test("the field event says the request was hedged and carries the loser's tokens and cost beside the winner's")
    func eventCarriesTheRace() async throws {
        let pricing = ModelPricing(inputPerMillion: 1_000, outputPerMillion: 1_000)
        let slow = ScriptedLanguageModel(id: "slow", tier: .privateCloud, script: [.hang])
        let fast = ScriptedLanguageModel(
            id: "fast", tier: .privateCloud, script: [.reply("fast", usage: TokenUsage(promptTokens: 5, completionTokens: 5), after: .milliseconds(50))])
        let clock = TestClock()
        let configs = ["slow": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing), "fast": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing)]
        let sink = InMemoryEventSink()
        let router = Self.router([slow, fast], hedge: HedgeConfig(afterMs: 100), configs: configs, clock: clock, eventSink: sink)
        _ = try await Self.pastTheHedge(afterMs: 100, clock: clock, first: slow) {
            try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        }
        let event = try #require(sink.events.first)
        #expect(event.hedged == true)
        #expect(event.servedBy == "fast")
        let loser = try #require(event.attempts.first { $0.outcome == RouteEvent.AttemptOutcome.lostRace })
        #expect(loser.model == "slow" && (loser.inputTokens ?? 0) > 0 && loser.outputTokens == 0)
        let loserCost = try #require(loser.costUSD)
        #expect(abs(loserCost - Double(loser.inputTokens ?? 0) * 1_000 / 1_000_000) < 1e-12)
        #expect(abs(event.costUSD - (loserCost + 0.01)) < 1e-12)
        // The wire form keeps every new member.
        #expect(try RouteEvent.readJSON(bytes: event.jsonBytes()) == event)
    }

    @Test("maxExtraCostPerRequestUSD: a model whose prompt and reserved output would cost more is not raced")
    func costCapHolds() async throws {
        // At $1,000 per million tokens, the prompt and the reserved output cost more than $0.01. Real time, with
        // margins far apart (hedge at 50 ms, the raced cloud answers 10 ms later): the virtual clock's scripted
        // replies move time at once and would race the hedge timer. Where the race should happen the device takes
        // 60 s (cancelled once the cloud wins), so a loaded machine cannot answer on the device first; where it
        // should not, 300 ms.
        let pricey = ModelPricing(inputPerMillion: 1_000, outputPerMillion: 1_000)
        for (cap, raced) in [(0.01, false), (1_000.0, true)] {
            let device = ScriptedLanguageModel(
                id: "device", script: [.reply("on device", after: .milliseconds(raced ? 60_000 : 300))])
            let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("cloud", after: .milliseconds(10)))
            var document = Fixtures.document(
                models: ["device": Fixtures.modelConfig(), "cloud": Fixtures.modelConfig(tier: .thirdParty, pricing: pricey)],
                priority: ["device", "cloud"])
            document.features[Fixtures.feature]?.routing = RoutingConfig(
                hedge: HedgeConfig(afterMs: 50, maxExtraCostPerRequestUSD: cap))
            let router = Router(
                unvalidated: .fixed(document), models: .models(["device": device, "cloud": cloud]), installId: "install-1")
            let result = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
            #expect(result.response.text == (raced ? "cloud" : "on device"), "cap \(cap)")
            #expect(cloud.callCount == (raced ? 1 : 0), "cap \(cap)")
        }
    }

    @Test("privacy still applies: a sensitive feature never races a cloud model")
    func privacyHolds() async throws {
        let device = ScriptedLanguageModel(id: "device", script: [.reply("on device", after: .milliseconds(900))])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("cloud"))
        let clock = TestClock()
        for model in [device, cloud] { model.run(on: clock.virtual) }
        var document = Fixtures.document(
            models: ["device": Fixtures.modelConfig(), "cloud": Fixtures.modelConfig(tier: .thirdParty)], priority: ["device", "cloud"],
            privacy: .sensitive)
        document.features[Fixtures.feature]?.routing = RoutingConfig(hedge: HedgeConfig(afterMs: 100))
        let router = Router(
            unvalidated: .fixed(document), models: .models(["device": device, "cloud": cloud]), installId: "i", clock: clock.routerClock)
        let result = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(result.response.text == "on device")
        #expect(cloud.callCount == 0)
    }

    @Test("once the feature's hedged share reaches maxHedgedShare, requests run unhedged until it falls below")
    func shareCapHolds() async throws {
        let device = ScriptedLanguageModel(
            id: "device", script: [.hang, .reply("second", after: .milliseconds(900)), .reply("third", after: .milliseconds(900))])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("cloud", after: .milliseconds(10)))
        let clock = TestClock()
        let router = Self.router([device, cloud], hedge: HedgeConfig(afterMs: 500, maxHedgedShare: 0.5), clock: clock)
        let first = try await Self.pastTheHedge(afterMs: 500, clock: clock, first: device) {
            try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        }
        #expect(first.servedBy.id == "cloud")
        // 1 of 1 hedged: at the cap, so the next two walk unhedged (a plain call, no timer) and the device serves.
        for text in ["second", "third"] {
            let routed = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
            #expect(routed.response.text == text && routed.attempts.map(\.outcome) == [.served])
        }
        #expect(cloud.callCount == 1)
    }
}

/// Progressive streams: the first call to send text wins the race; the other's text never reaches the app.
@Suite("Router: hedged progressive streams")
struct RouterHedgeStreamTests {
    static func collect(_ stream: RouterStream<RoutedStreamEvent>) async throws -> (text: String, routed: RoutedResponse?) {
        var text = ""
        var routed: RoutedResponse?
        for try await event in stream {
            switch event {
            case .delta(let piece): text += piece
            case .completed(let response): routed = response
            default: break
            }
        }
        return (text, routed)
    }

    @Test("the raced cloud's first text wins; the silent device stream is cancelled and none of its text goes out")
    func firstTextWins() async throws {
        let device = ScriptedLanguageModel(id: "device", script: [.hang])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply("cloud words here", after: .milliseconds(300))])
        let clock = TestClock()
        let router = RouterHedgeTests.router([device, cloud], hedge: HedgeConfig(afterMs: 500), clock: clock)
        let (text, routed) = try await RouterHedgeTests.pastTheHedge(afterMs: 500, clock: clock, first: device) {
            try await Self.collect(router.stream(feature: Fixtures.feature, input: Fixtures.input))
        }
        #expect(text == "cloud words here")
        #expect(routed?.attempts.map(\.outcome) == [.lostRace, .served])
        await device.waitUntil { $0.cancellations == 1 }
    }

    @Test("buffered: a loser cancelled mid-stream is billed for its prompt and the text it had streamed")
    func loserBilledForItsStreamedText() async throws {
        let pricing = ModelPricing(inputPerMillion: 1_000, outputPerMillion: 1_000)
        let partial = ["forty ", "scalars ", "of text ", "streamed before the cut"]
        let device = ScriptedLanguageModel(id: "device", tier: .privateCloud, script: [.partialThenHang(partial)])
        let cloud = ScriptedLanguageModel(
            id: "cloud", tier: .privateCloud,
            script: [.reply("cloud", usage: TokenUsage(promptTokens: 5, completionTokens: 5), after: .milliseconds(300))])
        let ledger = InMemorySpendLedger()
        let clock = TestClock()
        let configs = ["device": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing), "cloud": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing)]
        let router = RouterHedgeTests.router(
            [device, cloud], hedge: HedgeConfig(afterMs: 500), configs: configs, clock: clock, ledger: ledger, streaming: .buffered)
        let (text, routed) = try await RouterHedgeTests.pastTheHedge(afterMs: 500, clock: clock, first: device) {
            try await Self.collect(router.stream(feature: Fixtures.feature, input: Fixtures.input))
        }
        #expect(text == "cloud")
        let lost = try #require(routed?.attempts.first { $0.outcome == .lostRace })
        let usage = try #require(lost.usage)
        let streamed = partial.joined()
        #expect(usage.isEstimated && usage.completionTokens == (streamed.unicodeScalars.count + 3) / 4)
        let spend = try await ledger.spendRecords(month: BillingMonth(containing: clock.virtual.routerClock.date()))
        let deviceSpend = spend.filter { $0.modelID == "device" }.reduce(0) { $0 + $1.usd }
        #expect(abs(deviceSpend - Double(usage.promptTokens + usage.completionTokens) * 1_000 / 1_000_000) < 1e-12)
    }

    @Test("text before the hedge time goes out at once and disarms the hedge")
    func earlyTextDisarms() async throws {
        let device = ScriptedLanguageModel(id: "device", script: [.reply("device words", after: .milliseconds(100))])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, whenExhausted: .reply("cloud"))
        let router = RouterHedgeTests.router([device, cloud], hedge: HedgeConfig(afterMs: 500), clock: TestClock())
        let (text, routed) = try await Self.collect(router.stream(feature: Fixtures.feature, input: Fixtures.input))
        #expect(text == "device words")
        #expect(routed?.attempts.map(\.outcome) == [.served])
        #expect(cloud.callCount == 0)
    }
}
