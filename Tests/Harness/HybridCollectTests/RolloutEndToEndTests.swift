import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridEvents
import HybridProjectTestSupport
import HybridRecommend
import HybridReport
import HybridRouter
import HybridStore
import HybridTestSupport
import Synchronization
import Testing

/// A staged rollout on the real loop: configs published to a folder nginx serves, simulated installs each with a
/// real `Router` over a `ConfigLoader` fetching from nginx (ETag) and the HTTP event uploader into a real
/// `hybrid collect`, and `hybrid rollout step --watch` deciding between rounds of installs. A harmless change goes
/// through every stage to 100 %; a change whose variant fails 10 points more often is rolled back in the stage
/// where the evidence appears. Serial (`SERIAL_TESTS`): it runs several servers and the CLI.
@Suite(.serialized) struct RolloutEndToEndTests {
    /// Installs that arrive between two looks, each sending five requests.
    static let installsPerRound = 300
    static let rounds = 40

    /// Version 1: `summarize` with a `concise` and a `brief` variant, the arm `brief` at 0 % under a plan of 10, 50
    /// and 100 %, no minimum time (the test's looks are seconds apart), 100 installs per group, error rate guarded.
    static func document() -> HybridConfigDocument {
        let device = ModelConfig(
            kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "m", tier: .onDevice, pricing: .free,
            contextWindow: 4_096, capabilities: .init(structuredOutput: false, streaming: true))
        let feature = FeatureConfig(
            variants: ["concise": PromptVariant(template: "Summarize: {{input}}"), "brief": PromptVariant(template: "In three words: {{input}}")],
            defaultVariant: "concise", priority: ["device"], privacy: .open)
        var document = HybridConfigDocument(version: 1, models: ["device": device], features: ["summarize": feature])
        document.rollouts["summarize"] = RolloutConfig(
            seed: "rollout-e2e", arms: [RolloutArm(name: "brief", percentage: 0, variant: "brief")],
            plan: RolloutPlan(stages: [10, 50, 100], minStageHours: 0, minInstallsPerArm: 100, guardrails: [.init(metric: .errorRate)]))
        return document
    }

    @Test func aHarmlessChangeReachesEveryoneAndARegressionRollsItselfBack() async throws {
        guard FileManager.default.isExecutableFile(atPath: NginxServer.binary) else {
            Issue.record("nginx is not installed at \(NginxServer.binary); run `make setup`")
            return
        }
        let harmless = try await Self.rollout(extraFailures: 0)
        #expect(harmless.state.status == .completed, "\(harmless.status)")
        #expect(harmless.state.decisions.map(\.action) == [.start, .advance, .advance], "\(harmless.status)")
        #expect(harmless.publishedPercentage == 100)

        let regression = try await Self.rollout(extraFailures: 0.10)
        #expect(regression.state.status == .rolledBack, "\(regression.status)")
        #expect(regression.publishedPercentage == 0)
        let rollBack = try #require(regression.state.decisions.last)
        #expect(rollBack.action == .rollBack && rollBack.guardrails.contains { $0.metric == "errorRate" && $0.breached })
        print("rollout e2e: the regression was rolled back at stage \(rollBack.stage) with \(rollBack.armInstalls) arm and \(rollBack.controlInstalls) control installs of that stage")
    }

    struct Ended {
        var state: RolloutState
        var status: String
        var publishedPercentage: Double?
    }

    /// One rollout from version 1 to its end: the watch process looks every second while rounds of installs run.
    static func rollout(extraFailures: Double) async throws -> Ended {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        try await nginx.waitUntilReady(transport: CurlTransport.shared)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = directory.url.appendingPathComponent("rollout.sqlite").path
        let destination = nginx.root.appendingPathComponent("hybrid.json").absoluteString
        let initial = directory.url.appendingPathComponent("v1.json")
        try document().encodedJSON().write(to: initial)
        let published = try await HybridCLI.run(["config", "publish", initial.path, "--to", destination, "--db", db], in: directory.url)
        #expect(published.status == 0, "\(published.output)")
        let started = try await HybridCLI.run(["rollout", "start", "summarize", "--to", destination, "--db", db], in: directory.url)
        #expect(started.status == 0, "\(started.output)")

        let collector = try await HybridCLI.startServer(
            ["collect", "--listen", "127.0.0.1:0", "--token-env", "E2E_COLLECT_TOKEN", "--db", db], in: directory.url,
            environment: ["E2E_COLLECT_TOKEN": "rollout-token"])
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(
            configuration: .init(endpoint: collector.url, token: "rollout-token", maxQueuedEvents: 20_000, maxBatchEvents: 500,
                                 maxBatchAge: .milliseconds(100)),
            transport: CurlTransport.shared)
        let model = FlakyModel(extraFailuresForBrief: extraFailures)

        let watching = Mutex(true)
        async let watch = Task {
            defer { watching.withLock { $0 = false } }
            return try await HybridCLI.run(
                ["rollout", "step", "summarize", "--watch", "1s", "--to", destination, "--db", db], in: directory.url,
                killAfter: .seconds(300))
        }.value
        let configURL = nginx.baseURL + "/hybrid.json"
        for round in 0..<rounds where watching.withLock({ $0 }) {
            try await serveRound(round, configURL: configURL, model: model, sink: uploader)
            _ = await uploader.flush()
            try await Task.sleep(for: .milliseconds(1_500))
        }
        let watched = try await watch
        #expect(watched.status == 0, "\(watched.output)")
        let status = try await HybridCLI.run(["rollout", "status", "summarize", "--db", db], in: directory.url)
        print("rollout e2e (\(extraFailures == 0 ? "harmless" : "regression")):\n\(watched.output)\n\(status.output)")
        let store = try SQLiteFieldEventStore(path: db)
        let record = try #require(try await store.rolloutRecord(feature: "summarize"))
        let served = try ConfigValidator.load(try Data(contentsOf: nginx.root.appendingPathComponent("hybrid.json"))).document
        return Ended(
            state: try RolloutState.decoded(record.body), status: status.output,
            publishedPercentage: served.rollouts["summarize"]?.arms.first?.percentage)
    }

    /// `installsPerRound` new installs: each fetches the config from nginx and sends five requests.
    static func serveRound(_ round: Int, configURL: String, model: FlakyModel, sink: any RouteEventSink) async throws {
        let bundled = try ConfigValidator.validate(document())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<installsPerRound {
                if index >= 16 { try await group.next() }
                group.addTask {
                    let loader = ConfigLoader(
                        bundled: bundled, sourceURL: configURL, fetcher: ConfigFetcher(transport: CurlTransport.shared))
                    await loader.start()
                    await loader.refresh()
                    let router = try Router(
                        config: .loader(loader), models: .models(["device": model]),
                        installId: "install-\(round)-\(index)", eventSink: sink, onIncident: { _ in })
                    for _ in 0..<5 { _ = try? await router.generate(feature: "summarize", input: ["input": "The bridge closes."]) }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// The on-device model of the simulated installs: it fails 2 % of requests, and `extraFailuresForBrief` more of
/// those rendered from the `brief` variant (the change under rollout). Seeded, so a run is repeatable.
final class FlakyModel: LanguageModel {
    let id = "device"
    let displayName = "device"
    let tier = ModelTier.onDevice
    let capabilities = ModelCapabilities(streaming: false, contextWindow: 4_096)
    let extraFailuresForBrief: Double
    private let random = Mutex(SplitMix64(seed: 42))

    init(extraFailuresForBrief: Double) { self.extraFailuresForBrief = extraFailuresForBrief }

    func availability() async -> ModelAvailability { .available }

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        let brief = request.messages.last?.content.hasPrefix("In three words") == true
        let draw = random.withLock { $0.nextUnit() }
        if draw < 0.02 + (brief ? extraFailuresForBrief : 0) {
            throw .serverError(model: id, status: 500, detail: "simulated failure")
        }
        return GenerationResponse(
            text: brief ? "Bridge closes now." : "The bridge closes.", servedBy: identity,
            usage: TokenUsage(promptTokens: 8, completionTokens: 4),
            timing: GenerationTiming(timeToFirstToken: .milliseconds(20), total: .milliseconds(40)), finishReason: .stop)
    }

    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> { streamByGenerating(request) }
}
