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

/// Hands each event to several sinks: the uploader under test, and memory so the test can re-send a batch itself.
private struct TeeSink: RouteEventSink {
    let sinks: [any RouteEventSink]
    func record(_ event: RouteEvent) {
        for sink in sinks { sink.record(event) }
    }
}

/// The field loop on real parts: a few thousand installs (distinct install ids) run the `Router` under a 50/50
/// rollout of two prompt variants → `HTTPBatchEventUploader` → the real `hybrid collect` → `hybrid report` with
/// intervals → `hybrid recommend` writes the promotion; the same events with one arm's installs partly missing are
/// caught by the sample-ratio check (through `hybrid ingest`); a re-sent batch changes no figure.
///
/// The real SmolLM2 takes 0.3–2 s a call, so only a slice of installs (`localInstalls`, "devices with the local
/// runtime") has it; every other install's router finds `local-smollm2` unavailable (no llama runtime registered,
/// as on a phone) and is served by the loopback cloud model, which speaks OpenAI Chat Completions
/// (platform.openai.com/docs/api-reference/chat/create) and answers the `brief` prompt within the word limit and
/// the `concise` prompt beyond it.
@Suite(.serialized) struct FieldLoopEndToEndTests {
    static let installs = 1_500
    static let localInstalls = 6
    static let input = "The city council voted on Monday to close the old bridge for six months of repairs."

    static func config(cloudBaseURL: String) throws -> HybridConfigDocument {
        let rollout = RolloutConfig(
            seed: "field-e2e", arms: [
                RolloutArm(name: "concise", percentage: 50, variant: "concise"),
                RolloutArm(name: "brief", percentage: 50, variant: "brief"),
            ])
        return try LocalAndCloudConfig.document(
            feature: "summarize", cloudBaseURL: cloudBaseURL, maxOutputTokens: 24, rollouts: ["summarize": rollout]
        ) { feature in
            feature.variants = [
                "concise": PromptVariant(template: "Summarize the text below.\n\nText:\n{{input}}\n\nSummary:"),
                "brief": PromptVariant(template: "Summarize the text below in three words.\n\nText:\n{{input}}\n\nSummary:"),
            ]
            feature.defaultVariant = "concise"
            feature.constraints = OutputConstraints(maxWords: 6)
            feature.deadlineMs = 60_000
            feature.routing = RoutingConfig(fallbackOnOutput: ["constraints"])
        }
    }

    @Test func routerToCollectorToReportToRecommendation() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let cloud = try FakeChatCompletionsServer { prompt, _ in
            prompt.contains("three words") ? .reply("Council closes bridge.") : .reply(Self.input)
        }
        defer { cloud.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let document = try Self.config(cloudBaseURL: cloud.baseURL)
        let configPath = directory.url.appendingPathComponent("config.json").path
        try document.encodedJSON().write(to: URL(fileURLWithPath: configPath))
        let db = directory.url.appendingPathComponent("field.sqlite").path

        let collector = try await HybridCLI.startServer(
            ["collect", "--listen", "127.0.0.1:0", "--token-env", "E2E_COLLECT_TOKEN", "--db", db], in: directory.url,
            environment: ["E2E_COLLECT_TOKEN": "field-token"])
        defer { collector.stop() }
        let uploader = HTTPBatchEventUploader(
            configuration: .init(
                endpoint: collector.url, token: "field-token", maxQueuedEvents: 20_000, maxBatchEvents: 500,
                maxBatchAge: .milliseconds(200)),
            transport: CurlTransport.shared)
        let memory = InMemoryEventSink()
        let sink = TeeSink(sinks: [uploader, memory])

        let cloudOnly = LocalAndCloudConfig.cloudFactory()
        let withLocal = cloudOnly.withLocalLlama(.success(installation))
        let phoneModels = Self.models(document, cloudOnly)
        let macModels = Self.models(document, withLocal)
        let local = try #require(macModels["local-smollm2"] as? LocalLlamaModel)
        do {
            try await local.prepare()
            try await Self.serve(document, phone: phoneModels, mac: macModels, sink: sink)
        } catch {
            await local.process?.stop()
            throw error
        }
        await local.process?.stop()

        let status = await uploader.flush()
        #expect(status.sent == Self.installs && status.droppedCount == 0 && status.pending == 0, "\(status)")
        let events = memory.events
        #expect(events.count == Self.installs)
        #expect(Set(events.map(\.installId)).count == Self.installs)
        #expect(events.filter { $0.servedBy == "local-smollm2" }.count <= Self.localInstalls)

        let run = "field-summarize-v1"
        let report = try await Self.report(run: run, db: db, config: configPath, in: directory.url, name: "first")
        let field = try #require(report.field)
        try Self.checkHealthySplit(field)

        // Re-sending a batch the collector already has changes nothing.
        let resent = try await CollectorServerTests.post(
            try CollectorServerTests.batch(Array(events.prefix(500))), to: collector.url, token: "field-token")
        #expect(resent.0 == 200)
        #expect(resent.1.contains(#""accepted":0"#) && resent.1.contains(#""duplicates":500"#), "\(resent.1)")
        let again = try await Self.report(run: run, db: db, config: configPath, in: directory.url, name: "again")
        #expect(again.field == report.field)
        #expect(again.features == report.features)

        let proposed = directory.url.appendingPathComponent("proposed.json").path
        let recommend = try await HybridCLI.run(
            ["recommend", run, "--config", configPath, "--db", db, "--out", proposed], in: directory.url)
        #expect(recommend.status == 0, "\(recommend.output)")
        #expect(recommend.output.contains("promote rollout arm brief of summarize to 100 %"), "\(recommend.output)")
        let promoted = try ConfigValidator.load(try Data(contentsOf: URL(fileURLWithPath: proposed))).document
        #expect(promoted.version == 2)
        #expect(promoted.rollouts["summarize"]?.arms.map(\.percentage) == [0, 100])
        #expect(promoted.provenance?.evalRun == run)
        #expect(promoted.description?.contains("adherence brief vs concise") == true)

        try await Self.checkSkewedSplitIsCaught(events, config: configPath, in: directory.url)
    }

    static func models(_ document: HybridConfigDocument, _ factory: ModelFactory) -> [String: any LanguageModel] {
        Dictionary(uniqueKeysWithValues: document.models.map { ($0.key, factory.model(id: $0.key, config: $0.value)) })
    }

    /// One request per install, 24 at a time; the first `localInstalls` installs have the local model.
    static func serve(
        _ document: HybridConfigDocument, phone: [String: any LanguageModel], mac: [String: any LanguageModel],
        sink: any RouteEventSink
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<installs {
                if index >= 24 { try await group.next() }
                group.addTask {
                    let router = try Router(
                        config: .fixed(document), models: .models(index < localInstalls ? mac : phone),
                        installId: String(format: "install-%05d", index), eventSink: sink,
                        eventLabels: ["deviceClass": index < localInstalls ? "mac" : "phone"], onIncident: { _ in })
                    _ = try? await router.generate(feature: "summarize", input: ["input": input])
                }
            }
            try await group.waitForAll()
        }
    }

    static func report(run: String, db: String, config: String, in directory: URL, name: String) async throws -> RunReport {
        let out = directory.appendingPathComponent("report-\(name)").path
        let outcome = try await HybridCLI.run(
            ["report", run, "--db", db, "--rollout-config", config, "--out", out, "--format", "json,md", "--by", "deviceClass"],
            in: directory)
        #expect(outcome.status == 0, "\(outcome.output)")
        return try RunReport.load(path: out + "/report.json")
    }

    static func checkHealthySplit(_ field: FieldAnalysis) throws {
        let srm = try #require(field.sampleRatio)
        #expect(!srm.mismatch && field.effectsReportable, "\(srm)")
        #expect(field.arms.map(\.name) == ["brief", "concise"])
        #expect(field.arms.reduce(0) { $0 + $1.installs } == installs)
        let adherence = try #require(field.comparisons.first { $0.metric == "adherence" })
        #expect(adherence.arm == "brief" && adherence.control == "concise")
        #expect(adherence.lower > 0.5 && adherence.lower <= adherence.difference && adherence.difference <= adherence.upper)
        // The always-valid (mSPRT) interval must also exclude zero.
        let sequentialLower = try #require(adherence.sequentialLower)
        #expect(sequentialLower > 0 && sequentialLower <= adherence.difference)
        #expect(adherence.verdict == "better")
        // Installs are the unit: one request per install here, so installs and events agree.
        #expect(adherence.installs.map { $0.arm == $0.armEvents && $0.control == $0.controlEvents } == true)
        #expect(field.comparisons.contains { $0.metric == "latencyP95Ms" && $0.intervalMethod.hasPrefix("install-bootstrap") })
        // Split by the label the routers attached: six Mac installs are too few to judge, the phones are judged.
        let segments = try #require(field.segments)
        #expect(segments.map(\.value) == ["mac", "phone"])
        #expect(segments.map(\.judged) == [false, true])
    }

    /// A third of the `brief` installs never report (as if that arm crashed before uploading): `hybrid ingest`
    /// of the rest, and the report names the mismatch and claims nothing; recommend changes nothing.
    static func checkSkewedSplitIsCaught(_ events: [RouteEvent], config: String, in directory: URL) async throws {
        let skewed = events.filter { event in
            event.rolloutArm != "brief" || (Int(event.installId.dropFirst("install-".count)) ?? 0) % 3 != 0
        }
        let encoder = JSONEncoder()
        var lines = Data()
        for event in skewed {
            lines.append(try encoder.encode(event))
            lines.append(0x0A)
        }
        let file = directory.appendingPathComponent("skewed.jsonl")
        try lines.write(to: file)
        let db = directory.appendingPathComponent("skewed.sqlite").path
        let ingest = try await HybridCLI.run(["ingest", file.path, "--db", db], in: directory)
        #expect(ingest.status == 0 && ingest.output.contains("\(skewed.count) stored"), "\(ingest.output)")
        let report = try await report(run: "field-summarize-v1", db: db, config: config, in: directory, name: "skewed")
        let field = try #require(report.field)
        #expect(field.sampleRatio?.mismatch == true)
        #expect(!field.effectsReportable)
        #expect(field.comparisons.allSatisfy { $0.verdict.hasPrefix("not reported") })
        let markdown = try String(contentsOfFile: directory.appendingPathComponent("report-skewed/report.md").path, encoding: .utf8)
        #expect(markdown.contains("SAMPLE RATIO MISMATCH"))
        let recommend = try await HybridCLI.run(
            ["recommend", "field-summarize-v1", "--config", config, "--db", db], in: directory)
        #expect(recommend.output.contains("no change: sample ratio check did not pass"), "\(recommend.output)")
    }
}
