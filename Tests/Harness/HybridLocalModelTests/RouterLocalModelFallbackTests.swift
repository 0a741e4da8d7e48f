import Foundation
import HybridConfig
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
@testable import HybridRouter
import HybridTestSupport
import HybridTransport
import Synchronization
import Testing

/// Passes every call through to `base` and keeps the text it answered, so the test can judge the real model's
/// output itself instead of trusting the router's verdict.
private final class RecordingModel: LanguageModel {
    let base: any LanguageModel
    let answers = Mutex<[String]>([])

    init(base: any LanguageModel) {
        self.base = base
    }

    var id: String { base.id }
    var displayName: String { base.displayName }
    var tier: ModelTier { base.tier }
    var capabilities: ModelCapabilities { base.capabilities }
    func availability() async -> ModelAvailability { await base.availability() }

    func generate(_ request: GenerationRequest) async throws(GenerationError) -> GenerationResponse {
        let response = try await base.generate(request)
        answers.withLock { $0.append(response.text) }
        return response
    }

    func stream(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> { base.stream(request) }
}

@Suite(.serialized) struct RouterLocalModelFallbackTests {
    static let cloudReply = #"{"name": "Ada Lovelace", "company": "Analytical Engines", "topics": ["computing"]}"#

    @Test("SmolLM2 answers that fail the extract schema, and only those, fall back to the loopback cloud model")
    func fallsBackExactlyWhereTheLocalModelFailsTheSchema() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        // The fake cloud speaks OpenAI Chat Completions (platform.openai.com/docs/api-reference/chat/create).
        let cloud = try FakeChatCompletionsServer { _, _ in .reply(Self.cloudReply) }
        defer { cloud.stop() }
        let document = try LocalAndCloudConfig.document(
            feature: "extract", cloudBaseURL: cloud.baseURL, maxOutputTokens: 80,
            adjust: { feature in
                feature.deadlineMs = 120_000
                feature.routing = RoutingConfig(fallbackOnOutput: ["schema"])
            },
            // The schema goes only into the prompt (no grammar), so the small model gets some cases wrong.
            adjustLocal: { local in local.capabilities.structuredOutput = false })

        let factory = LocalAndCloudConfig.cloudFactory().withLocalLlama(.success(installation))
        let smol = try #require(factory.model(id: "local-smollm2", config: document.models["local-smollm2"]!) as? LocalLlamaModel)
        let recorded = RecordingModel(base: smol)
        let router = try Router(
            config: .fixed(document), models: .models(["local-smollm2": recorded, "fake-cloud": factory.model(id: "fake-cloud", config: document.models["fake-cloud"]!)]),
            installId: "e2e", onIncident: { _ in })
        let inputs = try Self.inputs(count: 6)
        do {
            try await smol.prepare()
            try await check(router: router, recorded: recorded, inputs: inputs, schema: try #require(document.features["extract"]?.outputSchema), cloud: cloud)
        } catch {
            await smol.process?.stop()
            throw error
        }
        await smol.process?.stop()
    }

    private func check(
        router: Router, recorded: RecordingModel, inputs: [String], schema: JSONSchema, cloud: FakeChatCompletionsServer
    ) async throws {
        let checks = OutputChecks(schema: schema, constraints: nil)
        var fellBack = 0
        for (index, input) in inputs.enumerated() {
            let routed = try await router.generate(feature: "extract", input: ["input": input])
            let localText = try #require(recorded.answers.withLock { $0.last })
            #expect(recorded.answers.withLock { $0.count } == index + 1)
            let localFailures = checks.evaluate(localText).failures
            if localFailures.isEmpty {
                #expect(routed.servedBy.id == "local-smollm2", "case \(index): \(routed.attempts)")
                #expect(routed.attempts.map(\.outcome) == [.served])
            } else {
                fellBack += 1
                #expect(routed.servedBy.id == "fake-cloud", "case \(index): local answered \(localText)")
                #expect(routed.response.text == Self.cloudReply)
                try #require(routed.attempts.count == 2)
                #expect(routed.attempts[0].modelID == "local-smollm2")
                #expect(routed.attempts[0].outcome == .failedChecks(localFailures))
                #expect(routed.attempts[0].description.contains("failed checks: schema"))
                #expect(routed.attempts[1].outcome == .served)
            }
        }
        #expect(cloud.requestCount == fellBack)
        // The schema in the prompt alone is not enough for a 135M model on every case.
        #expect(fellBack > 0, "SmolLM2 met the schema on every case; the fallback path was not exercised")
    }

    /// The first `count` inputs of the bundled extract dataset.
    static func inputs(count: Int) throws -> [String] {
        let url = ProjectRoot.appending("datasets/extract.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").prefix(count)
        return try lines.map { line in
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            return try #require(value["input"]?["input"]?.stringValue)
        }
    }
}
