import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridEvents
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
import HybridReport
import HybridRouter
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// An older phone: the same on-device model, `extra` slower per answer (what a slower NPU costs). The delay is the
/// simulated hardware, not a wait for an outcome.
private struct SlowerDevice: LanguageModel {
    let base: any LanguageModel
    let extra: Duration

    var id: String { base.id }
    var displayName: String { base.displayName }
    var tier: ModelTier { base.tier }
    var capabilities: ModelCapabilities { base.capabilities }
    func availability() async -> ModelAvailability { await base.availability() }
    func prepare() async throws(GenerationError) { try await base.prepare() }

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        var response = try await base.generate(request)
        do { try await Task.sleep(for: extra) } catch { throw .cancelled(model: id) }
        response.timing.total += extra
        return response
    }

    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        streamByGenerating(request)
    }
}

/// Issue #31's loop on real parts: installs of two device classes run the `Router` (real SmolLM2 on device, a
/// loopback OpenAI-format cloud) under a config with a `deviceClass` condition → events through the real
/// `hybrid collect` → `hybrid report --by deviceClass` shows the slow class over the p95 floor → `hybrid recommend
/// --by deviceClass` writes an override for that class only → published, the router serves that class cloud-first
/// and the other on device → `hybrid simulate --check-router --label` agrees on every case for both classes.
@Suite(.serialized) struct SegmentLoopEndToEndTests {
    static let classes = (slow: "phone-2019", fast: "phone-2024")
    static let installsPerClass = 5
    static let slowdown = Duration.seconds(8)
    static let p95FloorMs = 6_000.0
    static let input = "The city council voted on Monday to close the old bridge for six months of repairs."

    /// Local first, cloud behind; an existing `tablets` condition the test's installs never match.
    static func config(cloudBaseURL: String) throws -> HybridConfigDocument {
        var document = try LocalAndCloudConfig.document(feature: "summarize", cloudBaseURL: cloudBaseURL, maxOutputTokens: 12) { feature in
            feature.variants = ["concise": PromptVariant(template: "Summarize in a few words.\n\nText:\n{{input}}\n\nSummary:")]
            feature.defaultVariant = "concise"
            feature.deadlineMs = 60_000
        }
        document.conditions = [ConfigCondition(name: "tablets", labels: ["deviceClass": LabelTest(prefix: "tablet")])]
        document.features["summarize"]?.overrides = ["tablets": FeatureOverride(deadlineMs: 30_000)]
        return try ConfigValidator.validate(document).document
    }

    @Test func perClassOverrideFromFieldEventsToTheRouter() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let cloud = try FakeChatCompletionsServer { _, _ in .reply("Council closes bridge.") }
        defer { cloud.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let document = try Self.config(cloudBaseURL: cloud.baseURL)
        let configPath = try Self.write(document, to: directory, name: "config.json")
        let db = directory.url.appendingPathComponent("field.sqlite").path
        let policy = directory.url.appendingPathComponent("policy.json")
        try Data(#"{"features": {"summarize": {"p95LatencyMs": \#(Self.p95FloorMs)}}}"#.utf8).write(to: policy)

        let factory = LocalAndCloudConfig.cloudFactory().withLocalLlama(.success(installation))
        let models = Dictionary(uniqueKeysWithValues: document.models.map { ($0.key, factory.model(id: $0.key, config: $0.value)) })
        let local = try #require(models[LocalAndCloudConfig.localModel] as? LocalLlamaModel)
        do {
            try await local.prepare()
            try await Self.loop(document, models: models, configPath: configPath, db: db, policy: policy.path, in: directory)
        } catch {
            await local.process?.stop()
            throw error
        }
        await local.process?.stop()
    }

    private static func loop(
        _ document: HybridConfigDocument, models: [String: any LanguageModel], configPath: String, db: String, policy: String,
        in directory: TemporaryDirectory
    ) async throws {
        // 1. Installs of both classes serve through the router and upload their events to `hybrid collect`.
        let collector = try await HybridCLI.startServer(
            ["collect", "--listen", "127.0.0.1:0", "--token-env", "SEGMENT_TOKEN", "--db", db], in: directory.url,
            environment: ["SEGMENT_TOKEN": "segment-token"])
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(
            configuration: .init(endpoint: collector.url, token: "segment-token", maxBatchEvents: 50, maxBatchAge: .milliseconds(100)),
            transport: CurlTransport.shared)
        try await serve(document, models: models, sink: uploader)
        let status = await uploader.flush()
        #expect(status.sent == 2 * installsPerClass && status.pending == 0, "\(status)")

        // 2. The field report split by device class: the slow class is over the floor, the other under it.
        let run = "field-summarize-v1"
        let out = directory.url.appendingPathComponent("report").path
        let report = try await HybridCLI.run(
            ["report", run, "--db", db, "--rollout-config", configPath, "--out", out, "--format", "json,md", "--by", "deviceClass",
             "--minimum-installs", "5"], in: directory.url)
        #expect(report.status == 0, "\(report.output)")
        let segments = try #require(try RunReport.load(path: out + "/report.json").field?.segments)
        let p95 = Dictionary(uniqueKeysWithValues: segments.map { ($0.value, $0.arms.first?.latency?.p95 ?? 0) })
        #expect(p95[classes.slow].map { $0 > p95FloorMs } == true, "\(p95)")
        #expect(p95[classes.fast].map { $0 < p95FloorMs } == true, "\(p95)")

        // 3. recommend --by deviceClass: an override for the slow class only.
        let proposed = directory.url.appendingPathComponent("proposed.json").path
        let recommend = try await HybridCLI.run(
            ["recommend", run, "--config", configPath, "--db", db, "--policy", policy, "--by", "deviceClass",
             "--minimum-installs", "5", "--out", proposed], in: directory.url)
        #expect(recommend.status == 0, "\(recommend.output)")
        #expect(recommend.output.contains("deviceClass=\(classes.fast): meets the floors"), "\(recommend.output)")
        let next = try ConfigValidator.load(try Data(contentsOf: URL(fileURLWithPath: proposed))).document
        let condition = "deviceClass-\(classes.slow)"
        #expect(next.version == 2)
        #expect(next.conditions.map(\.name) == [condition, "tablets"])
        #expect(next.features["summarize"]?.overrides?[condition]?.priority == [LocalAndCloudConfig.cloudModel, LocalAndCloudConfig.localModel])
        #expect(next.features["summarize"]?.overrides?["tablets"] == document.features["summarize"]?.overrides?["tablets"])

        // 4. Published (as a file the app fetches), the router serves the slow class cloud-first, the other on device.
        let published = directory.url.appendingPathComponent("published.json")
        let publish = try await HybridCLI.run(["config", "publish", proposed, "--to", published.absoluteString, "--db", db], in: directory.url)
        #expect(publish.status == 0, "\(publish.output)")
        let live = try ConfigValidator.load(try Data(contentsOf: published)).document
        for (deviceClass, expected) in [(classes.slow, LocalAndCloudConfig.cloudModel), (classes.fast, LocalAndCloudConfig.localModel)] {
            let router = try Router(config: .fixed(live), models: .models(models), installId: "after-\(deviceClass)", eventLabels: ["deviceClass": deviceClass], onIncident: { _ in })
            let routed = try await router.generate(feature: "summarize", input: ["input": input])
            #expect(routed.attempts.first?.modelID == expected && routed.servedBy.id == expected, "\(deviceClass): \(routed.attempts)")
            #expect(routed.condition == (deviceClass == classes.slow ? condition : nil))
        }

        // 5. An eval as each class, then the router replayed with the labels agrees with the simulation everywhere.
        let dataset = directory.url.appendingPathComponent("cases.jsonl")
        try Data((1...3).map { #"{"id": "c\#($0)", "input": {"input": "Case \#($0): \#(input)"}}"# }.joined(separator: "\n").utf8).write(to: dataset)
        for deviceClass in [classes.slow, classes.fast] {
            let evalRun = "as-\(deviceClass)"
            let eval = try await HybridCLI.run(
                ["eval", "--feature", "summarize", "--dataset", dataset.path, "--run-id", evalRun, "--config", published.path,
                 "--label", "deviceClass=\(deviceClass)", "--db", db,
                 // The CLI runs in a scratch folder without the local model: what is checked here is the cloud
                 // route and the labels, so a run where SmolLM2 answered nothing is accepted on purpose.
                 "--allow-unavailable"], in: directory.url,
                environment: [LocalAndCloudConfig.cloudKeyVariable: "loopback"])
            #expect(eval.status == 0, "\(eval.output)")
            #expect(eval.output.contains("labels: deviceClass=\(deviceClass)"), "\(eval.output)")
            let reportDirectory = directory.url.appendingPathComponent("report-\(evalRun)").path
            let shown = try await HybridCLI.run(["report", evalRun, "--db", db, "--out", reportDirectory, "--format", "md"], in: directory.url)
            #expect(shown.status == 0, "\(shown.output)")
            let markdown = try String(contentsOfFile: reportDirectory + "/report.md", encoding: .utf8)
            #expect(markdown.contains("as an install with `deviceClass=\(deviceClass)`"), "\(markdown.prefix(600))")
            let check = try await HybridCLI.run(
                ["simulate", evalRun, "--check-router", "--config", published.path, "--label", "deviceClass=\(deviceClass)", "--db", db],
                in: directory.url)
            #expect(check.status == 0, "\(check.output)")
            #expect(check.output.contains("agreement: 6 of 6 cases (100.0 %)"), "\(check.output)")  // as generate and as stream
        }
    }

    /// One request per install. The fast class goes first, one install at a time (its latency is SmolLM2's own,
    /// with no queue at the one local server); then the slow class all at once, so their added seconds overlap.
    private static func serve(_ document: HybridConfigDocument, models: [String: any LanguageModel], sink: any RouteEventSink) async throws {
        var older = models
        older[LocalAndCloudConfig.localModel] = models[LocalAndCloudConfig.localModel].map { SlowerDevice(base: $0, extra: slowdown) }
        let slowModels = older
        @Sendable func install(_ index: Int, slow: Bool) async throws {
            let router = try Router(
                config: .fixed(document), models: .models(slow ? slowModels : models), installId: "install-\(slow ? "slow" : "fast")-\(index)",
                eventSink: sink, eventLabels: ["deviceClass": slow ? classes.slow : classes.fast], onIncident: { _ in })
            _ = try await router.generate(feature: "summarize", input: ["input": input])
        }
        for index in 0..<installsPerClass { try await install(index, slow: false) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<installsPerClass { group.addTask { try await install(index, slow: true) } }
            try await group.waitForAll()
        }
    }

    private static func write(_ document: HybridConfigDocument, to directory: TemporaryDirectory, name: String) throws -> String {
        let path = directory.url.appendingPathComponent(name).path
        try document.encodedJSON().write(to: URL(fileURLWithPath: path))
        return path
    }
}
