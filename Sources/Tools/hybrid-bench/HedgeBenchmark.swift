import Foundation
import HybridConfig
import HybridCore
import HybridReport
import HybridRouter
import HybridTestSupport

/// `hybrid-bench hedge [--requests N] [--concurrency N] [--after MS]`: the real router, in real time, over a scripted
/// heavy-tailed on-device model (92 % lognormal around 80 ms, 8 % between 1 and 4 s) with a priced cloud model
/// behind it (250 ms), unhedged and hedged. Target: hedged p95 at most half the unhedged p95, for at most 10 % of
/// the cost of sending every request to the cloud.
enum HedgeBenchmark {
    static let cloudUsage = TokenUsage(promptTokens: 500, completionTokens: 100)
    static let cloudPricing = ModelPricing(inputPerMillion: 0.15, outputPerMillion: 0.6)

    static func run(_ arguments: BenchmarkArguments) async throws {
        let requests = arguments.int("requests", default: 400)
        let concurrency = arguments.int("concurrency", default: 50)
        let afterMs = arguments.int("after", default: 300)
        let delays = deviceDelays(count: requests)
        print("hedge: \(requests) requests at concurrency \(concurrency); device: lognormal median 80 ms (92 %), 1–4 s tail (8 %); cloud: 250 ms, \(dollars(cloudPricing.cost(of: cloudUsage))) per call")
        let plain = try await measure(hedge: nil, delays: delays, concurrency: concurrency)
        let hedged = try await measure(hedge: HedgeConfig(afterMs: afterMs), delays: delays, concurrency: concurrency)
        let allCloud = cloudPricing.cost(of: cloudUsage) * Double(requests)
        for (label, figures) in [("no hedge", plain), ("hedge after \(afterMs) ms", hedged)] {
            print(String(format: "  %@: p50 %.0f ms, p95 %.0f ms, p99 %.0f ms; cloud cost %@ per 1,000 requests (%.1f %% of all-cloud); hedged %.1f %%",
                         label, figures.latency.p50, figures.latency.p95, figures.latency.p99, dollars(figures.costUSD / Double(requests) * 1_000),
                         figures.costUSD / allCloud * 100, Double(figures.hedged) / Double(requests) * 100))
        }
        let ratio = hedged.latency.p95 / plain.latency.p95
        let extra = (hedged.costUSD - plain.costUSD) / allCloud
        print(String(format: "  p95 hedged / unhedged: %.2f (target ≤ 0.5) %@; extra cloud cost %.1f %% of all-cloud (target ≤ 10 %%) %@",
                     ratio, ratio <= 0.5 ? "OK" : "ABOVE TARGET", extra * 100, extra <= 0.1 ? "OK" : "ABOVE TARGET"))
    }

    struct Figures {
        var latency: Percentiles
        var costUSD: Double
        var hedged: Int
    }

    /// Every request through a router over a fresh script of `delays`, `concurrency` at a time.
    static func measure(hedge: HedgeConfig?, delays: [Duration], concurrency: Int) async throws -> Figures {
        let device = ScriptedLanguageModel(id: "device", recordRequests: false)
        for delay in delays { device.enqueue(.reply("on device", after: delay)) }
        let cloud = ScriptedLanguageModel(
            id: "cloud", tier: .thirdParty, whenExhausted: .reply("in the cloud", usage: cloudUsage, after: .milliseconds(250)), recordRequests: false)
        let router = try Router(config: .fixed(document(hedge: hedge)), models: .models(["device": device, "cloud": cloud]), installId: "bench", onIncident: { _ in })
        let clock = ContinuousClock()
        var latencies: [Double] = []
        var cost = 0.0
        var hedged = 0
        try await withThrowingTaskGroup(of: (Double, RoutedResponse).self) { group in
            var started = 0
            func startNext() {
                guard started < delays.count else { return }
                started += 1
                group.addTask {
                    let start = clock.now
                    let routed = try await router.generate(feature: "summarize", input: ["input": "A short text to summarize."])
                    return ((clock.now - start).seconds * 1_000, routed)
                }
            }
            for _ in 0..<concurrency { startNext() }
            while let (ms, routed) = try await group.next() {
                latencies.append(ms)
                cost += routed.attempts.reduce(0) { sum, attempt in
                    attempt.modelID == "cloud" ? sum + (attempt.usage.map(cloudPricing.cost(of:)) ?? 0) : sum
                }
                if routed.attempts.filter(\.calledModel).count > 1 { hedged += 1 }
                startNext()
            }
        }
        return Figures(latency: Percentiles(latencies)!, costUSD: cost, hedged: hedged)
    }

    /// Seeded: 92 % lognormal (median 80 ms, σ 0.5), 8 % uniform in 1–4 s.
    static func deviceDelays(count: Int) -> [Duration] {
        var rng = SplitMix64(seed: 41)
        return (0..<count).map { _ in
            let ms: Double
            if Double.random(in: 0..<1, using: &rng) < 0.08 {
                ms = 1_000 + 3_000 * Double.random(in: 0..<1, using: &rng)
            } else {
                let normal = (-2 * log(max(Double.random(in: 0..<1, using: &rng), 1e-12))).squareRoot() * cos(2 * .pi * Double.random(in: 0..<1, using: &rng))
                ms = 80 * exp(0.5 * normal)
            }
            return .milliseconds(Int(ms.rounded()))
        }
    }

    static func document(hedge: HedgeConfig?) throws -> HybridConfigDocument {
        let device = ModelConfig(
            kind: .llamaCpp, model: "device", tier: .onDevice, pricing: .free, contextWindow: 4096,
            capabilities: .init(structuredOutput: true, streaming: true))
        let cloud = ModelConfig(
            kind: .openAICompatible, baseURL: "http://127.0.0.1:9/v1", model: "cloud", tier: .thirdParty, apiKeyEnv: "BENCH_CLOUD_KEY",
            pricing: cloudPricing, contextWindow: 8192, capabilities: .init(structuredOutput: true, streaming: true))
        let feature = FeatureConfig(
            instructions: "You write short summaries.", variants: ["plain": PromptVariant(template: "Summarize: {{input}}")],
            defaultVariant: "plain", options: FeatureGenerationOptions(temperature: 0, maxOutputTokens: 100),
            priority: ["device", "cloud"], privacy: .open, routing: RoutingConfig(hedge: hedge))
        return HybridConfigDocument(version: 1, models: ["device": device, "cloud": cloud], features: ["summarize": feature])
    }

    static func dollars(_ value: Double) -> String { String(format: "$%.4f", value) }
}
