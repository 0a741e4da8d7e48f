import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
import HybridRecommend
import HybridRouter
import HybridRunner
import HybridStore
import HybridTestSupport
import HybridTransport
import Testing

/// The whole loop on real parts: eval through the real local model and a loopback cloud model → recommend →
/// publish → an app's loader fetches the new config → its router serves through the newly preferred model.
@Suite(.serialized) struct LoopEndToEndTests {
    static let cloudReply = "Council closes bridge."

    /// The test's starting config: the local model first, a priced third-party model behind it, and a `summarize`
    /// constraint (at most 3 words) that the small local model cannot meet while the fake cloud always does.
    static func baseConfig(cloudBaseURL: String) throws -> HybridConfigDocument {
        try LocalAndCloudConfig.document(feature: "summarize", cloudBaseURL: cloudBaseURL, maxOutputTokens: 48) { feature in
            feature.variants = ["concise": feature.variants["concise"]!]
            feature.defaultVariant = "concise"
            feature.constraints = OutputConstraints(maxWords: 3)
        }
    }

    @Test func evalRecommendPublishAndServeThroughTheNewlyPreferredModel() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let cloud = try FakeChatCompletionsServer { _, _ in .reply(Self.cloudReply) }
        defer { cloud.stop() }
        let host = try ConfigStoreServer()
        defer { host.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-loop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try HybridDatabase(path: directory.appendingPathComponent("hybrid.sqlite").path)

        let base = try Self.baseConfig(cloudBaseURL: cloud.baseURL)
        let factory = LocalAndCloudConfig.cloudFactory().withLocalLlama(.success(installation))
        let models = Dictionary(uniqueKeysWithValues: base.models.map { ($0.key, factory.model(id: $0.key, config: $0.value)) })
        let local = try #require(models["local-smollm2"] as? LocalLlamaModel)
        do {
            try await local.prepare()
            try await loop(base: base, models: models, cloud: cloud, host: host, database: database)
        } catch {
            await local.process?.stop()
            throw error
        }
        await local.process?.stop()
    }

    private func loop(
        base: HybridConfigDocument, models: [String: any LanguageModel], cloud: FakeChatCompletionsServer,
        host: ConfigStoreServer, database: HybridDatabase
    ) async throws {

        // 1. Eval: 10 cases × both arms, through the real local model and the loopback cloud. Fewer cases could not
        //    show the cloud better: a one-sided paired test on 4 cases cannot go below p = 1/16.
        let plan = try EvalPlan(
            runID: "loop-e2e", feature: "summarize", config: base, configHash: "base", dataset: try Dataset.load(path: "datasets/summarize.jsonl"),
            limit: 10)
        let store = SQLiteResultStore(database: database)
        let summary = try await EvalRunner(
            store: store, models: models, options: EvalOptions(concurrency: 2, scorers: [TokenF1Scorer()])
        ).run(plan)
        #expect(summary.stored == 20 && summary.errors == 0)
        let results = try await store.results(run: "loop-e2e")
        let localResults = results.filter { $0.modelID == "local-smollm2" }
        #expect(localResults.allSatisfy { !($0.rawOutput ?? "").isEmpty && $0.costUSD == 0 })
        #expect(localResults.contains { $0.allConstraintsPassed == false }, "the local model should break the 3-word limit")
        #expect(results.filter { $0.modelID == "fake-cloud" }.allSatisfy { $0.allConstraintsPassed == true && ($0.costUSD ?? 0) > 0 })

        // 2. The app, on version 1 from the config host, serves through the local model first.
        let publisher = ConfigPublisher(transport: CurlTransport.shared, snapshots: SQLiteConfigSnapshotStore(database: database))
        let signer = ConfigSigner.generate()
        let url = host.url("/hybrid.config.json")
        _ = try await publisher.publish(base.encodedJSON(), to: url, options: .init(signer: signer))
        let loader = ConfigLoader(
            bundled: try ConfigValidator.validate(base), sourceURL: url, fetcher: ConfigFetcher(transport: CurlTransport.shared),
            verifier: try ConfigSignatureVerifier(publicKeyBase64: signer.publicKeyBase64))
        #expect(await loader.refresh().source == .remote(url: url))
        let router = try Router(config: .loader(loader), models: .models(models), installId: "e2e-install", onIncident: { _ in })
        let before = try await router.generate(feature: "summarize", input: ["input": "The river bridge in Marlow closes to cars in March."])
        #expect(before.servedBy.id == "local-smollm2")

        // 3. Recommend: the local model breaks the constraint where the cloud does not, so the cloud is shown
        //    better on adherence and the route starts with it.
        let simulator = try await RouteSimulator.load(from: store, run: "loop-e2e")
        let recommendation = try Recommender(policy: RecommendationPolicy(features: ["summarize": .init(minAdherenceLower: 0.5)]))
            .recommend(document: base, simulators: [simulator])
        let decision = try #require(recommendation.features.first)
        #expect(decision.decision == .change, "\(recommendation.renderSummary())")
        #expect(decision.chosen?.order.first == "fake-cloud")
        #expect(recommendation.document.version == 2)
        #expect(recommendation.document.provenance?.evalRun == "loop-e2e")
        #expect(recommendation.diff.contains("features.summarize.priority: local-smollm2, fake-cloud → fake-cloud"))

        // 4. Publish (signed, conditional on the ETag recorded by the first publish).
        let published = try await publisher.publish(recommendation.document.encodedJSON(), to: url, options: .init(signer: signer))
        #expect(published.version == 2 && published.expectedETag != nil)

        // 5. The app's loader fetches it and its router now serves through the cloud model.
        let resolution = await loader.refresh()
        #expect(resolution.reasonNewOneRejected == nil)
        #expect(resolution.config.version == 2)
        #expect(resolution.config.features["summarize"]?.priority.first == "fake-cloud")
        let requestsBefore = cloud.requestCount
        let after = try await router.generate(feature: "summarize", input: ["input": "The river bridge in Marlow closes to cars in March."])
        #expect(after.servedBy.id == "fake-cloud", "\(after.attempts)")
        #expect(after.servedBy.tier == .thirdParty)
        #expect(after.response.text == Self.cloudReply)
        #expect(cloud.requestCount == requestsBefore + 1)
    }
}
