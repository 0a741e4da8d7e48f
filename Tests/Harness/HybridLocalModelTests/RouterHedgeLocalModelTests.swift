import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HybridConfig
import HybridCore
import HybridCurl
import HybridLocalModel
import HybridLocalModelTestSupport
import HybridProviders
@testable import HybridRouter
import HybridTestSupport
import Testing

/// Hedged requests end to end: the real SmolLM2 first, made slow on some cases by long prompts, and a loopback
/// OpenAI-format cloud behind it. The same cases run unhedged, then hedged; the slow cases must be served by the
/// cloud when hedged, p95 must drop, and llama-server's one slot must be free after every race it lost (its
/// `/slots` endpoint says so), which shows the cancel reached the server through libcurl.
@Suite(.serialized) struct RouterHedgeLocalModelTests {
    static let hedgeAfterMs = 2_000

    @Test("slow device cases are served by the raced cloud, p95 drops, the cost stays within the cap and the slot is freed")
    func hedgeServesTheSlowCasesFromTheCloud() async throws {
        guard let installation = LocalModelRequirement.installed() else { return }
        let cloud = try FakeChatCompletionsServer { _, _ in .reply("A short summary.") }
        defer { cloud.stop() }
        let hedge = HedgeConfig(afterMs: Self.hedgeAfterMs, maxExtraCostPerRequestUSD: 0.001)
        let hedged = try LocalAndCloudConfig.document(
            feature: "summarize", cloudBaseURL: cloud.baseURL, maxOutputTokens: 12,
            adjust: { feature in
                feature.deadlineMs = 600_000
                feature.routing = RoutingConfig(hedge: hedge)
            })
        var plain = hedged
        plain.features["summarize"]?.routing = nil
        let factory = LocalAndCloudConfig.cloudFactory().withLocalLlama(.success(installation))
        let local = try #require(factory.model(id: LocalAndCloudConfig.localModel, config: hedged.models[LocalAndCloudConfig.localModel]!) as? LocalLlamaModel)
        let cloudModel = factory.model(id: LocalAndCloudConfig.cloudModel, config: hedged.models[LocalAndCloudConfig.cloudModel]!)
        let models: [String: any LanguageModel] = [LocalAndCloudConfig.localModel: local, LocalAndCloudConfig.cloudModel: cloudModel]
        do {
            try await local.prepare()
            let base = try #require(try await local.process?.start())
            let slots = try #require(URL(string: String(base.dropLast("/v1".count)) + "/slots"))
            let unhedged = try await Self.run(Router(config: .fixed(plain), models: .models(models), installId: "e2e", onIncident: { _ in }), seed: 1, slots: slots)
            let raced = try await Self.run(Router(config: .fixed(hedged), models: .models(models), installId: "e2e", onIncident: { _ in }), seed: 2, slots: slots)
            try Self.check(unhedged: unhedged, hedged: raced, pricing: try #require(hedged.models[LocalAndCloudConfig.cloudModel]?.pricing), cap: hedge)
        } catch {
            await local.process?.stop()
            throw error
        }
        await local.process?.stop()
    }

    struct Served {
        var slow: Bool
        var latencyMs: Double
        var routed: RoutedResponse
        /// After a race the device lost: how long until llama-server's slot was idle again.
        var slotFreeAfterMs: Double?
    }

    /// Four short inputs and two of about 1,200 words (a long prompt: seconds of prompt processing on SmolLM2).
    /// The long texts differ per run, so llama-server's prompt cache cannot make the second run fast.
    static func inputs(seed: Int) -> [(input: String, slow: Bool)] {
        let words = ["river", "market", "council", "harbour", "engine", "garden", "ledger", "signal", "orchard", "bridge", "lantern", "meadow"]
        func long(_ salt: Int) -> String {
            (0..<1_200).map { words[($0 * 7 + salt * 5 + seed * 11) % words.count] }.joined(separator: " ") + "."
        }
        return [
            ("The council approved two new bike lanes.", false), (long(1), true), ("Rain is expected on Tuesday.", false),
            ("The bakery opens an hour earlier in summer.", false), (long(2), true), ("A new bridge links the two parks.", false),
        ]
    }

    static func run(_ router: Router, seed: Int, slots: URL) async throws -> [Served] {
        var served: [Served] = []
        let clock = ContinuousClock()
        for (input, slow) in inputs(seed: seed) {
            let start = clock.now
            let routed = try await router.generate(feature: "summarize", input: ["input": input])
            let latency = (clock.now - start).milliseconds
            var freeAfter: Double?
            if routed.attempts.contains(where: { $0.outcome == .lostRace && $0.modelID == LocalAndCloudConfig.localModel }) {
                freeAfter = try await slotFreeAfter(slots, since: clock.now)
            }
            served.append(Served(slow: slow, latencyMs: latency, routed: routed, slotFreeAfterMs: freeAfter))
        }
        return served
    }

    /// Polls `/slots` until no slot is processing; milliseconds from `since`. Fails after a minute.
    static func slotFreeAfter(_ slots: URL, since: ContinuousClock.Instant) async throws -> Double {
        let clock = ContinuousClock()
        while clock.now - since < .seconds(60) {
            let (data, _) = try await URLSession.shared.data(from: slots)
            let states = try JSONDecoder().decode([SlotState].self, from: data)
            if !states.contains(where: \.is_processing) { return (clock.now - since).milliseconds }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("llama-server's slot was still processing a minute after the race was lost")
        return .infinity
    }

    struct SlotState: Decodable {
        var is_processing: Bool
    }

    static func check(unhedged: [Served], hedged: [Served], pricing: ModelPricing, cap: HedgeConfig) throws {
        for (index, request) in unhedged.enumerated() {
            #expect(request.routed.servedBy.id == LocalAndCloudConfig.localModel, "unhedged case \(index): \(request.routed.attempts)")
        }
        for (index, request) in hedged.enumerated() where request.slow {
            #expect(request.routed.servedBy.id == LocalAndCloudConfig.cloudModel, "slow case \(index): \(request.routed.attempts)")
            #expect(request.routed.attempts.map(\.outcome) == [.lostRace, .served])
            #expect(request.routed.attempts[1].startedAt >= .milliseconds(Self.hedgeAfterMs))
        }
        for (index, request) in hedged.enumerated() {
            let cost = request.routed.attempts.reduce(0.0) { $0 + ($1.modelID == LocalAndCloudConfig.cloudModel ? ($1.usage.map(pricing.cost(of:)) ?? 0) : 0) }
            #expect(cost <= cap.maxExtraCostPerRequestUSD ?? .infinity, "case \(index) spent \(cost) on the cloud")
            if request.routed.attempts.contains(where: { $0.outcome == .lostRace && $0.modelID == LocalAndCloudConfig.localModel }) {
                #expect(request.slotFreeAfterMs.map { $0.isFinite } == true)
            }
        }
        let p95 = { (runs: [Served]) in Self.p95(runs.map(\.latencyMs)) }
        #expect(p95(hedged) < p95(unhedged), "p95 hedged \(p95(hedged)) ms, unhedged \(p95(unhedged)) ms")
        let frees = hedged.compactMap(\.slotFreeAfterMs).map { String(format: "%.0f", $0) }.joined(separator: ", ")
        print("hedge e2e: p95 unhedged \(Int(p95(unhedged))) ms, hedged \(Int(p95(hedged))) ms; slot free after the lost races: [\(frees)] ms")
    }

    /// The type-7 95th percentile, as reports compute it.
    static func p95(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let h = Double(sorted.count - 1) * 0.95
        let low = Int(h.rounded(.down))
        return low + 1 < sorted.count ? sorted[low] + (h - Double(low)) * (sorted[low + 1] - sorted[low]) : sorted[low]
    }
}
