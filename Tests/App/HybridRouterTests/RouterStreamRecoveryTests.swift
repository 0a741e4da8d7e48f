@testable import HybridConfig
@testable import HybridCore
@testable import HybridEvents
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

/// Stream recovery with scripted models: what the app sees (deltas, `.reset`), what the next model is sent, what is
/// billed and what the field event records. The wire-level tests (a loopback server dropping the connection, the
/// real SmolLM2 killed mid-answer) are in `RouterStreamRecoveryWireTests`.
@Suite("Router: stream recovery")
struct RouterStreamRecoveryTests {
    static let broken = GenerationError.serverError(model: "a", status: nil, detail: "connection reset by peer")

    /// Every event of one stream, in order.
    static func events(_ stream: RouterStream<RoutedStreamEvent>) async throws -> [RoutedStreamEvent] {
        var events: [RoutedStreamEvent] = []
        for try await event in stream { events.append(event) }
        return events
    }

    @Test("continue (the default): the next model gets the text shown as the start of its answer, and the stream goes on with no reset")
    func continuesFromTheShownText() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.partialThenFail(["The river ", "rose overnight"], Self.broken)])
        let b = ScriptedLanguageModel(id: "b", script: [.reply(" and the bridge closed.")])
        let events = try await Self.events(try Fixtures.router([a, b]).stream(feature: Fixtures.feature, input: Fixtures.input))

        #expect(!events.contains(.reset))
        #expect(events.screen == "The river rose overnight and the bridge closed.")
        let routed = try #require(events.completed)
        #expect(routed.response.text == "The river rose overnight and the bridge closed.")
        #expect(routed.servedBy.id == "b")
        #expect(routed.attempts.map(\.outcome.kind) == [.interrupted, .served])
        #expect(routed.attempts[0].outcome.error == Self.broken)
        let sent = try #require(b.requests.first)
        #expect(sent.messages.last == .assistant("The river rose overnight"))
        #expect(sent.messages.dropLast() == a.requests.first?.messages[...])
    }

    @Test("a continuing model that repeats the text it was given (as llama-server does) is not shown it twice")
    func anEchoIsNotShownTwice() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.partialThenFail(["The river ", "rose"], Self.broken)])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("The river rose overnight.")])
        let events = try await Self.events(try Fixtures.router([a, b]).stream(feature: Fixtures.feature, input: Fixtures.input))
        #expect(events.screen == "The river rose overnight.")
        #expect(events.completed?.response.text == "The river rose overnight.")
    }

    @Test("restart: a reset follows the interrupted attempt, then the next model's whole answer, asked afresh")
    func restartsAfterAReset() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.partialThenFail(["The river "], Self.broken)])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("Floods closed the bridge.")])
        let router = try Fixtures.router([a, b], routing: RoutingConfig(streamRecovery: .restart))
        let events = try await Self.events(router.stream(feature: Fixtures.feature, input: Fixtures.input))

        let reset = try #require(events.firstIndex(of: .reset))
        guard case .attempt(let interrupted) = events[reset - 1] else {
            Issue.record("the reset should follow the interrupted attempt: \(events)")
            return
        }
        #expect(interrupted.modelID == "a" && interrupted.outcome.kind == .interrupted)
        #expect(events.screen == "Floods closed the bridge.")
        #expect(events.completed?.response.text == "Floods closed the bridge.")
        #expect(b.requests.first?.messages == a.requests.first?.messages)
    }

    @Test("a stall past the attempt timeout after text is recovered too")
    func aStallIsRecovered() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.partialThenHang(["The river "])])
        let b = ScriptedLanguageModel(id: "b", script: [.reply("rose.")])
        let router = try Fixtures.router([a, b], routing: RoutingConfig(attemptTimeoutMs: 200))
        let events = try await Self.events(router.stream(feature: Fixtures.feature, input: Fixtures.input))
        let routed = try #require(events.completed)
        #expect(routed.response.text == "The river rose.")
        #expect(routed.attempts[0].outcome.error?.kind == .timeout)
    }

    @Test("both parts are billed: the interrupted call for its prompt and the text it streamed, the field event carries both")
    func bothPartsAreBilled() async throws {
        let pricing = ModelPricing(inputPerMillion: 1_000, outputPerMillion: 1_000)
        let a = ScriptedLanguageModel(id: "a", tier: .privateCloud, script: [.partialThenFail(["The river rose overnight, "], Self.broken)])
        let b = ScriptedLanguageModel(
            id: "b", tier: .privateCloud, script: [.reply("and the bridge closed.", usage: TokenUsage(promptTokens: 30, completionTokens: 6))])
        let ledger = InMemorySpendLedger()
        let sink = InMemoryEventSink()
        let clock = TestClock()
        let configs = ["a": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing), "b": Fixtures.modelConfig(tier: .privateCloud, pricing: pricing)]
        let router = try Fixtures.router([a, b], configs: configs, ledger: ledger, clock: clock, eventSink: sink)
        let routed = try #require(try await Self.events(router.stream(feature: Fixtures.feature, input: Fixtures.input)).completed)

        let usage = try #require(routed.attempts[0].usage)
        #expect(usage.isEstimated && usage.promptTokens > 0 && usage.completionTokens > 0)
        let spend = try await ledger.spendRecords(month: BillingMonth(containing: clock.routerClock.date()))
        let spentOnA = spend.filter { $0.modelID == "a" }.reduce(0) { $0 + $1.usd }
        #expect(abs(spentOnA - Double(usage.promptTokens + usage.completionTokens) / 1_000) < 1e-12)
        #expect(abs(spend.filter { $0.modelID == "b" }.reduce(0) { $0 + $1.usd } - 0.036) < 1e-12)

        let event = try #require(sink.events.first)
        #expect(event.outcome == .served && event.servedBy == "b")
        #expect(event.attempts.map(\.outcome) == [.interrupted, .served])
        #expect(event.attempts[0].outputTokens == usage.completionTokens)
        #expect(abs(event.costUSD - (spentOnA + 0.036)) < 1e-12)
    }

    @Test("off, a stopping error kind, or nobody left: the stream ends with streamInterrupted and the first error")
    func whenNothingRecovers() async throws {
        let refusal = GenerationError.refusal(model: "b", detail: "no")
        let cases: [(RoutingConfig, ScriptedLanguageModel.Step)] = [
            (RoutingConfig(streamRecovery: .off), .reply("never used")),
            (RoutingConfig(onError: ["refusal": .stop]), .fail(refusal)),
            (RoutingConfig(), .fail(.serverError(model: "b", status: 503, detail: "offline"))),
        ]
        for (routing, step) in cases {
            let a = ScriptedLanguageModel(id: "a", script: [.partialThenFail(["The river "], Self.broken)])
            let b = ScriptedLanguageModel(id: "b", script: [step])
            do {
                _ = try await Self.events(try Fixtures.router([a, b], routing: routing).stream(feature: Fixtures.feature, input: Fixtures.input))
                Issue.record("expected streamInterrupted with \(routing)")
            } catch let error as RouterError {
                #expect(error.code == .streamInterrupted, "\(routing)")
                #expect(error.attempts.first?.outcome.kind == .interrupted)
            }
        }
    }

    struct Headline: StructuredOutput, Equatable {
        var title: String
        var words: Int
    }

    @Test("a typed stream restarts (a schema cannot be continued) and never yields a value mixed from two answers")
    func typedStreamsRestart() async throws {
        let a = ScriptedLanguageModel(id: "a", script: [.partialThenFail([#"{"title": "River "#, #"rises", "wo"#], Self.broken)])
        let b = ScriptedLanguageModel(id: "b", script: [.reply(#"{"title": "Bridge closed", "words": 2}"#)])
        let router = try Fixtures.router([a, b])
        var titles: [String?] = []
        var final: Headline?
        for try await snapshot in router.streamResponse(feature: Fixtures.feature, input: Fixtures.input, generating: Headline.self) {
            titles.append(snapshot.partial.title)
            if snapshot.completed != nil { final = snapshot.content }
        }
        #expect(final == Headline(title: "Bridge closed", words: 2))
        #expect(titles.allSatisfy { $0 == nil || ["River rises", "Bridge closed"].contains($0!) || "Bridge closed".hasPrefix($0!) || "River rises".hasPrefix($0!) })
        #expect(!titles.contains { $0?.contains("River") == true && $0?.contains("Bridge") == true })
        #expect(b.requests.first?.messages.last?.role == .user, "no prefix for a schema")
    }
}
