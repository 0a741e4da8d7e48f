import CoreMetrics
import Foundation
@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
import InMemoryTracing
import MetricsTestKit
import Synchronization
import Testing
import Tracing

/// The router's spans and metrics (#69), recorded into an in-memory tracer and `TestMetrics` given to the router:
/// the process's bootstrap is once-only and global, so no test here touches it.
@Suite("Router: OpenTelemetry spans and metrics")
struct RouterTelemetryTests {
    /// A router over `models` whose configs name each model `<id>-model` (so request and attempt models differ),
    /// recording into `tracer` and `metrics`.
    static func router(
        _ models: [ScriptedLanguageModel], tracer: InMemoryTracer, metrics: TestMetrics = TestMetrics(), clock: TestClock = TestClock(),
        policy: RouterDefaults = RouterDefaults(), cache: (any RouterCache)? = nil, routing: RoutingConfig? = nil,
        pricing: ModelPricing = .free, apiKeyEnv: String? = nil
    ) -> Router {
        var configs: [String: ModelConfig] = [:]
        for model in models {
            model.run(on: clock.virtual)
            var config = Fixtures.modelConfig(tier: model.tier, pricing: pricing)
            config.model = "\(model.id)-model"
            config.apiKeyEnv = apiKeyEnv
            configs[model.id] = config
        }
        var document = Fixtures.document(models: configs, priority: models.map(\.id))
        document.features[Fixtures.feature]?.routing = routing
        return Router(
            unvalidated: .fixed(document), models: .models(Dictionary(uniqueKeysWithValues: models.map { ($0.id, $0 as any LanguageModel) })),
            installId: "install-1", cache: cache, clock: clock.routerClock, policy: policy, tracer: tracer, metricsFactory: metrics)
    }

    static func string(_ span: FinishedInMemorySpan, _ name: String) -> String? {
        if case .string(let value) = span.attributes.get(name) { return value }
        return nil
    }

    static func int(_ span: FinishedInMemorySpan, _ name: String) -> Int64? {
        if case .int64(let value) = span.attributes.get(name) { return value }
        return nil
    }

    /// The request's span (the one without a parent) and its children in start order.
    static func spans(_ tracer: InMemoryTracer) throws -> (parent: FinishedInMemorySpan, children: [FinishedInMemorySpan]) {
        let finished = tracer.finishedSpans
        let parent = try #require(finished.first { $0.parentSpanID == nil })
        let children = finished.filter { $0.parentSpanID == parent.spanID }
            .sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        #expect(finished.count == children.count + 1, "every span is the request's or its child")
        return (parent, children)
    }

    @Test("a fallback walk: the request's span `chat <first model>` with two attempt spans as its children")
    func fallbackWalk() async throws {
        let tracer = InMemoryTracer()
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 503, detail: "overloaded"), after: .milliseconds(40))])
        let b = ScriptedLanguageModel(
            id: "b", script: [.reply("summary", usage: TokenUsage(promptTokens: 12, completionTokens: 3), after: .milliseconds(60))])
        let router = Self.router([a, b], tracer: tracer)
        _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)

        let (parent, children) = try Self.spans(tracer)
        #expect(parent.operationName == "chat a-model")
        #expect(parent.kind == .client)
        #expect(Self.string(parent, "gen_ai.operation.name") == "chat")
        #expect(Self.string(parent, "gen_ai.provider.name") == "openai")
        #expect(Self.string(parent, "gen_ai.request.model") == "a-model")
        // The response's model is the one the provider reported (the scripted model says "scripted").
        #expect(Self.string(parent, "gen_ai.response.model") == "scripted")
        #expect(Self.int(parent, "gen_ai.usage.input_tokens") == 12)
        #expect(Self.int(parent, "gen_ai.usage.output_tokens") == 3)
        #expect(Self.int(parent, "gen_ai.request.max_tokens") == 64)
        #expect(parent.attributes.get("gen_ai.request.temperature") == .double(0))
        #expect(parent.attributes.get("gen_ai.response.finish_reasons") == .stringArray(["stop"]))
        #expect(Self.string(parent, "hybrid.feature") == Fixtures.feature)
        #expect(Self.string(parent, "hybrid.variant") == "plain")
        #expect(Self.int(parent, "hybrid.config.version") == 1)
        #expect(parent.attributes.get("error.type") == nil)
        #expect(parent.status == nil)

        #expect(children.map(\.operationName) == ["chat a-model", "chat b-model"])
        #expect(children.map { Self.string($0, "hybrid.attempt.outcome") } == ["failed", "served"])
        #expect(Self.string(children[0], "error.type") == "server_error")
        #expect(children[0].status?.code == .error)
        #expect(children[1].status == nil)
        #expect(Self.string(children[1], "gen_ai.response.model") == "scripted")
        #expect(Self.int(children[1], "gen_ai.usage.output_tokens") == 3)
        // Attempt spans sit in the request's time: a over 0–40 ms, b over 40–100 ms.
        let start = parent.startInstant.nanosecondsSinceEpoch
        #expect(children[0].endInstant.nanosecondsSinceEpoch - start == 40_000_000)
        #expect(children[1].startInstant.nanosecondsSinceEpoch - start == 40_000_000)
        #expect(parent.endInstant.nanosecondsSinceEpoch - start == 100_000_000)
    }

    @Test("a hedged race: both calls are children, the loser marked lost_race and cancelled without an error status")
    func hedgeRace() async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let clock = TestClock()
        let device = ScriptedLanguageModel(id: "device", script: [.hang])
        let cloud = ScriptedLanguageModel(id: "cloud", tier: .thirdParty, script: [.reply("from the cloud", after: .milliseconds(300))])
        let router = Self.router(
            [device, cloud], tracer: tracer, metrics: metrics, clock: clock, routing: RoutingConfig(hedge: HedgeConfig(afterMs: 500)))
        _ = try await RouterHedgeTests.pastTheHedge(afterMs: 500, clock: clock, first: device) {
            try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        }
        let (parent, children) = try Self.spans(tracer)
        #expect(parent.attributes.get("hybrid.hedged") == .bool(true))
        #expect(children.map { Self.string($0, "hybrid.model.id") } == ["device", "cloud"])
        #expect(children.map { Self.string($0, "hybrid.attempt.outcome") } == ["lost_race", "served"])
        #expect(children[0].attributes.get("hybrid.attempt.cancelled") == .bool(true))
        #expect(Self.string(children[0], "error.type") == "cancelled")
        #expect(children[0].status == nil)
        #expect(try metrics.expectCounter("hybrid.router.hedge.races", [("hybrid.feature", Fixtures.feature)]).totalValue == 1)
        #expect(metrics.counters.filter { $0.label == "hybrid.router.fallbacks" }.isEmpty, "a hedge is not a fallback")
    }

    @Test("a cache hit is a child span marked hybrid.cache.hit, and the request's span says it too")
    func cacheHit() async throws {
        let tracer = InMemoryTracer()
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("answer"))
        let router = Self.router([a], tracer: tracer, cache: InMemoryRouterCache(capacity: 10, ttl: .seconds(60)))
        _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        tracer.clearFinishedSpans()
        let second = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(second.fromCache)
        let (parent, children) = try Self.spans(tracer)
        #expect(parent.attributes.get("hybrid.cache.hit") == .bool(true))
        #expect(children.count == 1)
        #expect(children[0].attributes.get("hybrid.cache.hit") == .bool(true))
        #expect(Self.string(children[0], "hybrid.attempt.outcome") == "served_from_cache")
        #expect(children[0].kind == .internal)
    }

    @Test("a failed request: error.type and an error status on the request's span; skipped models are events")
    func failedRequest() async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let a = ScriptedLanguageModel(id: "a", availability: .unavailable(.notInstalled(what: "llama-server", fix: "make setup")))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .fail(.rateLimited(model: "b", retryAfter: nil, retryable: true, detail: "429")))
        let router = Self.router([a, b], tracer: tracer, metrics: metrics)
        await #expect(throws: RouterError.self) { try await router.generate(feature: Fixtures.feature, input: Fixtures.input) }

        let (parent, children) = try Self.spans(tracer)
        #expect(Self.string(parent, "error.type") == "no_eligible_model" || Self.string(parent, "error.type") == "rate_limited")
        #expect(parent.status?.code == .error)
        #expect(parent.events.map(\.name) == ["hybrid.attempt.skipped"])
        #expect(parent.events.first?.attributes.get("hybrid.skip_reason") == .string("unavailable"))
        #expect(children.map { Self.string($0, "error.type") } == ["rate_limited"])
        let duration = try metrics.expectTimer(
            "gen_ai.client.operation.duration",
            [("gen_ai.operation.name", "chat"), ("gen_ai.provider.name", "openai"), ("gen_ai.request.model", "b-model"), ("error.type", "rate_limited")])
        #expect(duration.values.count == 1)
    }

    @Test("prompts and answers stay out of spans by default and go in with captureMessageContent")
    func contentCapture() async throws {
        let plain = InMemoryTracer()
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("the answer text"))
        _ = try await Self.router([a], tracer: plain).generate(feature: Fixtures.feature, input: Fixtures.input)
        for span in plain.finishedSpans {
            #expect(span.attributes.get("gen_ai.input.messages") == nil)
            #expect(span.attributes.get("gen_ai.output.messages") == nil)
            span.attributes.forEach { _, value in #expect(!"\(value)".contains("quick brown fox")) }
        }

        let capturing = InMemoryTracer()
        let router = Self.router([a], tracer: capturing, policy: RouterDefaults(captureMessageContent: true))
        _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        let (parent, _) = try Self.spans(capturing)
        let input = try #require(Self.string(parent, "gen_ai.input.messages"))
        let inputJSON = try JSONValue(parsing: input)
        #expect(inputJSON == .array([.object(["role": "user", "parts": .array([.object(["type": "text", "content": .string("Summarize: \(Fixtures.input["input"]!)")])])])]))
        let output = try JSONValue(parsing: try #require(Self.string(parent, "gen_ai.output.messages")))
        #expect(output == .array([.object(["role": "assistant", "finish_reason": "stop", "parts": .array([.object(["type": "text", "content": "the answer text"])])])]))
        #expect(Self.string(parent, "gen_ai.system_instructions")?.contains("You write short summaries.") == true)
    }

    @Test("an API key never reaches an attribute, even when a provider's error repeats it")
    func noSecrets() async throws {
        let key = "sk-test-SECRET-0123456789abcdef"
        let tracer = InMemoryTracer()
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .fail(.authentication(model: "a", detail: "invalid key \(key)")))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply("ok"))
        let router = Self.router([a, b], tracer: tracer, policy: RouterDefaults(captureMessageContent: true), apiKeyEnv: "OPENAI_API_KEY")
        _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)
        #expect(tracer.finishedSpans.count == 3)
        for span in tracer.finishedSpans {
            span.attributes.forEach { name, value in
                #expect(!"\(value)".contains(key), "\(name) carries the key")
                #expect(!"\(value)".contains("OPENAI_API_KEY"), "\(name) names the key's variable")
            }
            let message = span.status?.message ?? ""
            #expect(!message.contains(key))
        }
    }

    @Test("metrics: duration and token usage per call with the conventions' dimensions; fallbacks and cost per feature")
    func metrics() async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 500, detail: "boom"), after: .milliseconds(20))])
        let b = ScriptedLanguageModel(
            id: "b", script: [.reply("ok", usage: TokenUsage(promptTokens: 1_000_000, completionTokens: 500_000), after: .milliseconds(250))])
        let router = Self.router([a, b], tracer: tracer, metrics: metrics, pricing: ModelPricing(inputPerMillion: 2, outputPerMillion: 4))
        _ = try await router.generate(feature: Fixtures.feature, input: Fixtures.input)

        let served = [("gen_ai.operation.name", "chat"), ("gen_ai.provider.name", "openai"), ("gen_ai.request.model", "b-model"), ("gen_ai.response.model", "scripted")]
        #expect(try metrics.expectTimer("gen_ai.client.operation.duration", served).values == [250_000_000])
        let failed = [("gen_ai.operation.name", "chat"), ("gen_ai.provider.name", "openai"), ("gen_ai.request.model", "a-model"), ("error.type", "server_error")]
        #expect(try metrics.expectTimer("gen_ai.client.operation.duration", failed).values == [20_000_000])
        let input = try metrics.expectRecorder("gen_ai.client.token.usage", served + [("gen_ai.token.type", "input")])
        #expect(input.values == [1_000_000])
        #expect(input.aggregate)
        #expect(try metrics.expectRecorder("gen_ai.client.token.usage", served + [("gen_ai.token.type", "output")]).values == [500_000])
        #expect(try metrics.expectCounter("hybrid.router.fallbacks", [("hybrid.feature", Fixtures.feature)]).totalValue == 1)
        // $2 + $2 at the config's prices ($2 and $4 per million tokens). TestMetrics keeps a floating-point
        // counter as an integer one, so the test's cost is whole dollars.
        #expect(try metrics.expectCounter("hybrid.router.cost", [("hybrid.feature", Fixtures.feature)]).totalValue == 4)
    }

    @Test("a stream is one request span too, a child of the app's span, and its call a child of it")
    func streamSpan() async throws {
        let tracer = InMemoryTracer()
        let a = ScriptedLanguageModel(id: "a", whenExhausted: .reply("streamed words"))
        let router = Self.router([a], tracer: tracer)
        let app = tracer.startSpan("app action")
        try await InstrumentationContext.withValue(app.context) {
            for try await _ in router.stream(feature: Fixtures.feature, input: Fixtures.input) {}
        }
        app.end()
        let finished = tracer.finishedSpans
        let request = try #require(finished.first { $0.operationName == "chat a-model" && $0.parentSpanID == app.context.inMemorySpanContext?.spanID })
        let calls = finished.filter { $0.parentSpanID == request.spanID }
        #expect(calls.map { Self.string($0, "hybrid.attempt.outcome") } == ["served"])
    }

    @Test("a conversation turn is one request span whose children are every step's calls")
    func conversationTurn() async throws {
        let tracer = InMemoryTracer()
        let a = ScriptedLanguageModel(id: "a", script: [.fail(.serverError(model: "a", status: 503, detail: "down"))], whenExhausted: .reply("hi"))
        let b = ScriptedLanguageModel(id: "b", whenExhausted: .reply("hello"))
        let router = Self.router([a, b], tracer: tracer)
        let conversation = router.conversation(feature: Fixtures.feature)
        _ = try await conversation.send("Hello there, how are you today?")
        let (parent, children) = try Self.spans(tracer)
        #expect(parent.operationName == "chat a-model")
        #expect(Self.int(parent, "hybrid.conversation.steps") == 1)
        #expect(children.map { Self.string($0, "hybrid.attempt.outcome") } == ["failed", "served"])
    }

    @Test("a turn's span is current while it runs: each tool handler runs in an execute_tool span, its child")
    func conversationToolSpans() async throws {
        let tracer = InMemoryTracer()
        let call = ToolCall(id: "call_1", name: "lookup_album", argumentsText: "{}")
        let a = ScriptedLanguageModel(id: "a", script: [.callTools([call])], whenExhausted: .reply("Abbey Road, 1969."))
        let router = Self.router([a], tracer: tracer)
        let seen = Mutex<InstrumentationContext?>(nil)
        let lookup = ConversationTool(ToolDefinition(name: "lookup_album", description: "Finds an album.")) { _ in
            seen.withLock { $0 = InstrumentationContext.current }
            return "1969"
        }
        let conversation = router.conversation(feature: Fixtures.feature, tools: [lookup])
        _ = try await conversation.send("When was Abbey Road released?")
        let (turn, children) = try Self.spans(tracer)
        #expect(turn.operationName == "chat a-model")
        let tool = try #require(children.first { $0.operationName == "execute_tool lookup_album" })
        #expect(Self.string(tool, "gen_ai.operation.name") == "execute_tool")
        #expect(Self.string(tool, "gen_ai.tool.call.id") == "call_1")
        #expect(tool.status == nil)
        // The handler ran with the tool's span current: spans the app starts there are its children.
        let context = try #require(seen.withLock { $0 })
        #expect(context.inMemorySpanContext?.spanID == tool.spanID)
        #expect(children.filter { Self.string($0, "hybrid.attempt.outcome") == "served" }.count == 2)
    }

    @Test("without a tracer or metrics backend the request does no telemetry work")
    func offByDefault() {
        let telemetry = RouterTelemetry(tracer: nil, metricsFactory: nil, captureContent: false)
        #expect(telemetry.begin() == nil)
        #expect(RouterTelemetry(tracer: NoOpTracer(), metricsFactory: NOOPMetricsHandler.instance, captureContent: true).begin() == nil)
        #expect(RouterTelemetry(tracer: InMemoryTracer(), metricsFactory: nil, captureContent: false).begin()?.metrics == nil)
    }
}
