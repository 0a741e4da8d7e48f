import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridRouter
import HybridTestSupport

/// `hybrid-bench router [--requests N] [--deadline-calls N]`: the router's own cost per request with a model that
/// answers instantly (target < 20 µs), and how close to its deadline a call to a model that never answers returns
/// (target: within 5 ms).
///
/// Overhead is the router's time per request minus the same model called directly, so it covers config read,
/// rollout assignment, rendering, token estimate, eligibility checks and, with a deadline, the race's two tasks.
enum RouterBenchmark {
    static let overheadTargetMicroseconds = 20.0
    static let deadlineTargetMilliseconds = 5.0

    static func run(_ arguments: BenchmarkArguments) async throws {
        let requests = arguments.int("requests", default: 100_000)
        let deadlineCalls = arguments.int("deadline-calls", default: 100)
        let input = ["input": "The city council approved a plan to convert two downtown garages into 300 apartments."]
        let usage = TokenUsage(promptTokens: 40, completionTokens: 10)
        let instant = ScriptedLanguageModel(id: "instant", whenExhausted: .reply("ok", usage: usage), recordRequests: false)

        // The model alone, for the baseline.
        let request = GenerationRequest(prompt: "Summarize: " + input["input"]!, instructions: "Be brief.")
        let direct = try await perRequest(requests) { _ = try await instant.generate(request) }

        print("router: \(requests) requests per case, instant fake model (direct call \(format(direct)) µs)")
        var results: [(String, Double)] = []
        for (label, deadlineMs, cache) in [
            ("no deadline", nil, false), ("deadline 20 s (race)", 20_000, false), ("cache hit", 20_000, true),
        ] as [(String, Int?, Bool)] {
            let router = try Router(
                config: .fixed(document(deadlineMs: deadlineMs)), models: .models(["instant": instant]), installId: "bench-install",
                cache: cache ? InMemoryRouterCache() : nil, onIncident: { _ in })
            _ = try await router.generate(feature: "summarize", input: input)
            let routed = try await perRequest(requests) { _ = try await router.generate(feature: "summarize", input: input) }
            let overhead = routed - direct
            results.append((label, overhead))
            print("  \(label): \(format(routed)) µs/request, overhead \(format(overhead)) µs")
        }

        let targeting = try await conditionCost(requests: requests, input: input, model: instant)
        print(String(format: "  conditions: 200 features, 12 conditions, 3 overrides per feature, a match on the last one: %+.2f µs/request against the same document without them (target < %.0f µs) %@",
                     targeting, conditionTargetMicroseconds, targeting < conditionTargetMicroseconds ? "OK" : "ABOVE TARGET"))

        let rules = try await inputRuleCost(requests: requests, model: instant)
        print(String(format: "  input rules: 5 rules, none holding for a 2,000-character input (every test read): %+.2f µs/request against the same document without them (target ≤ %.0f µs) %@",
                     rules, inputRuleTargetMicroseconds, rules <= inputRuleTargetMicroseconds ? "OK" : "ABOVE TARGET"))

        let checked = try await outputCheckOverhead(requests: requests, input: input, usage: usage)
        print("  output checks on a \(checked.bytes)-byte JSON answer against the extract schema: overhead \(format(checked.overhead)) µs (without checks \(format(results[0].1)) µs; target < \(Int(checkedOverheadTargetMicroseconds)) µs)")

        try await RouterEventSinkBenchmark.run(requests: requests, input: input, model: instant, direct: direct)
        try await RouterTelemetryBenchmark.run(requests: requests, input: input, model: instant)

        let hanging = ScriptedLanguageModel(id: "instant", whenExhausted: .hang, recordRequests: false)
        let router = try Router(config: .fixed(document(deadlineMs: 50)), models: .models(["instant": hanging]), installId: "bench-install", onIncident: { _ in })
        let clock = ContinuousClock()
        var overshoots: [Double] = []
        for _ in 0..<deadlineCalls {
            let start = clock.now
            let failure: RouterError?
            do {
                _ = try await router.generate(feature: "summarize", input: input)
                failure = nil
            } catch {
                failure = error
            }
            let elapsed = clock.now - start
            guard failure?.code == .deadlineExceeded else { throw Failure.unexpected(String(describing: failure)) }
            overshoots.append((elapsed - .milliseconds(50)).milliseconds)
        }
        overshoots.sort()
        let mean = overshoots.reduce(0, +) / Double(overshoots.count)
        let p95 = overshoots[min(overshoots.count - 1, overshoots.count * 95 / 100)]
        let maxOvershoot = overshoots.last ?? 0
        print(String(format: "  deadline 50 ms, %d calls to a model that never answers: overshoot mean %.3f ms, p95 %.3f ms, max %.3f ms",
                     deadlineCalls, mean, p95, maxOvershoot))

        let worstOverhead = results.map(\.1).max() ?? 0
        print(String(format: "router: overhead %.2f µs (target < %.0f µs) %@ | with output checks %.2f µs (target < %.0f µs) %@ | deadline overshoot max %.2f ms (target < %.0f ms) %@",
                     worstOverhead, overheadTargetMicroseconds, worstOverhead < overheadTargetMicroseconds ? "OK" : "ABOVE TARGET",
                     checked.overhead, checkedOverheadTargetMicroseconds, checked.overhead < checkedOverheadTargetMicroseconds ? "OK" : "ABOVE TARGET",
                     maxOvershoot, deadlineTargetMilliseconds, maxOvershoot < deadlineTargetMilliseconds ? "OK" : "ABOVE TARGET"))
        // Last: it bootstraps the process's tracer and metrics factory, which every later router would use.
        try await RouterTelemetryBenchmark.otlpRow(requests: requests, input: input, model: instant)
    }

    static let checkedOverheadTargetMicroseconds = 50.0
    static let conditionTargetMicroseconds = 5.0

    /// What resolving conditions adds per request (issue #31's target: < 5 µs on a 200-feature document): the same
    /// 200 features with and without 12 label conditions, every feature overriding three of them, the install's
    /// labels matching only the last; the two routers are measured alternately, three rounds, medians compared.
    static func conditionCost(requests: Int, input: [String: String], model: ScriptedLanguageModel) async throws -> Double {
        var plain = document(deadlineMs: nil)
        plain.rollouts = [:]
        let base = plain.features["summarize"]!
        for index in 0..<199 { plain.features["feature_\(index)"] = base }
        var targeted = plain
        targeted.conditions = (0..<12).map { index in
            ConfigCondition(name: "c\(index)", labels: [
                "deviceClass": LabelTest(oneOf: ["class-\(index)", "other-\(index)"]), "appVersion": LabelTest(atLeast: "3.\(index)"),
            ])
        }
        for name in targeted.features.keys {
            // No deadline in the overrides: a deadline adds the race's timer, which the plain document lacks.
            targeted.features[name]?.overrides = [
                "c3": FeatureOverride(monthlyBudgetUSD: 3), "c7": FeatureOverride(monthlyBudgetUSD: 2),
                "c11": FeatureOverride(priority: ["instant"], monthlyBudgetUSD: 1),
            ]
        }
        let labels = ["deviceClass": "class-11", "appVersion": "3.12.1", "os": "iOS 18.1"]
        let withConditions = try Router(config: .fixed(targeted), models: .models(["instant": model]), installId: "bench-install", eventLabels: labels, onIncident: { _ in })
        let without = try Router(config: .fixed(plain), models: .models(["instant": model]), installId: "bench-install", eventLabels: labels, onIncident: { _ in })
        guard try await withConditions.generate(feature: "summarize", input: input).condition == "c11" else {
            throw Failure.unexpected("the bench's labels should match condition c11")
        }
        return try await addedCost(requests: requests, input: input, with: withConditions, without: without)
    }

    static let inputRuleTargetMicroseconds = 2.0

    /// What input rules add per request (issue #67's target: ≤ 2 µs for a 2,000-character input): the bench's
    /// document with five rules that never hold (so the request is measured and every test read) against the same
    /// document without rules, measured alternately, three rounds, medians compared.
    static func inputRuleCost(requests: Int, model: ScriptedLanguageModel) async throws -> Double {
        let paragraph = "The city council approved a plan to convert two downtown garages into 300 apartments. "
        let input = ["input": String(String(repeating: paragraph, count: 24).prefix(2_000))]
        var plain = document(deadlineMs: nil)
        plain.rollouts = [:]
        var ruled = plain
        ruled.features["summarize"]?.inputRules = [
            InputRule(name: "huge", when: [InputTest(.inputCharacters, atLeast: 100_000)], priority: ["instant"]),
            InputRule(name: "code", when: [InputTest(.hasCode, equals: true)], priority: ["instant"]),
            InputRule(name: "json-long", when: [InputTest(.hasJSON, equals: true), InputTest(.inputTokens, atLeast: 300)], priority: ["instant"]),
            InputRule(name: "long-form", when: [InputTest(label: "kind", LabelTest(equals: "long-form"))], priority: ["instant"]),
            InputRule(name: "non-latin", when: [InputTest(.nonLatinShare, atLeast: 0.5), InputTest(.turns, atLeast: 2)], priority: ["instant"]),
        ]
        let withRules = try Router(config: .fixed(ruled), models: .models(["instant": model]), installId: "bench-install", onIncident: { _ in })
        let without = try Router(config: .fixed(plain), models: .models(["instant": model]), installId: "bench-install", onIncident: { _ in })
        guard try await withRules.generate(feature: "summarize", input: input).inputRule == nil else {
            throw Failure.unexpected("no input rule of the bench should hold")
        }
        return try await addedCost(requests: requests, input: input, with: withRules, without: without)
    }

    /// What `with` adds per request over `without`: the two measured alternately, three rounds of `requests / 2`,
    /// medians compared (alternating keeps a machine's drift out of the difference).
    static func addedCost(requests: Int, input: [String: String], with: Router, without: Router) async throws -> Double {
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<3 {
            b.append(try await perRequest(requests / 2) { _ = try await without.generate(feature: "summarize", input: input) })
            a.append(try await perRequest(requests / 2) { _ = try await with.generate(feature: "summarize", input: input) })
        }
        return a.sorted()[1] - b.sorted()[1]
    }

    /// Router overhead when every answer is checked: the bundled extract feature's schema, fallback on schema
    /// failures, and an instant model answering about 1 KB of conforming JSON.
    static func outputCheckOverhead(
        requests: Int, input: [String: String], usage: TokenUsage
    ) async throws -> (bytes: Int, overhead: Double) {
        let topics = (1...48).map { "\"topic number \($0)\"" }.joined(separator: ", ")
        let answer = "{\"name\": \"Dana Whitfield\", \"company\": \"Northwind Logistics\", \"email\": \"dana@northwind.example\", \"topics\": [\(topics)]}"
        let model = ScriptedLanguageModel(id: "instant", whenExhausted: .reply(answer, usage: usage), recordRequests: false)
        var document = document(deadlineMs: nil)
        document.rollouts = [:]
        let bundled = try HybridConfigDocument.bundledDefaults().document
        document.features["summarize"]?.outputSchema = bundled.features["extract"]?.outputSchema
        document.features["summarize"]?.routing = RoutingConfig(fallbackOnOutput: ["schema"])
        let request = GenerationRequest(prompt: "Extract: " + input["input"]!, instructions: "Reply with JSON.")
        let direct = try await perRequest(requests) { _ = try await model.generate(request) }
        let router = try Router(config: .fixed(document), models: .models(["instant": model]), installId: "bench-install", onIncident: { _ in })
        let first = try await router.generate(feature: "summarize", input: input)
        guard first.failedChecks.isEmpty, first.attempts.count == 1 else { throw Failure.unexpected("the 1 KB answer failed its checks: \(first.failedChecks)") }
        let routed = try await perRequest(requests) { _ = try await router.generate(feature: "summarize", input: input) }
        return (answer.utf8.count, routed - direct)
    }

    enum Failure: Error { case unexpected(String) }

    /// One feature shaped like the bundled `summarize`, served by one free on-device model.
    static func document(deadlineMs: Int?) -> HybridConfigDocument {
        let model = ModelConfig(
            kind: .llamaCpp, model: "instant", tier: .onDevice, pricing: .free, contextWindow: 4096,
            capabilities: .init(structuredOutput: true, streaming: true))
        let feature = FeatureConfig(
            instructions: "You are a helpful assistant. You write short, factual summaries.",
            variants: [
                "concise": PromptVariant(template: "Summarize the text below in at most three short sentences.\n\nText:\n{{input}}\n\nSummary:\n"),
                "bullet": PromptVariant(template: "Summarize the text below as at most three bullet points.\n\nText:\n{{input}}\n\nBullet points:\n"),
            ],
            defaultVariant: "concise",
            options: FeatureGenerationOptions(temperature: 0.2, maxOutputTokens: 160),
            priority: ["instant"], deadlineMs: deadlineMs, privacy: .open, monthlyBudgetUSD: 5)
        var document = HybridConfigDocument(version: 1, models: ["instant": model], features: ["summarize": feature])
        document.rollouts = ["summarize": RolloutConfig(seed: "bench", arms: [RolloutArm(name: "bullet", percentage: 50, variant: "bullet")])]
        return document
    }

    /// Mean microseconds per call of `body` over `count` calls.
    static func perRequest(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { try await body() }
        return (clock.now - start).seconds * 1e6 / Double(count)
    }

    static func format(_ microseconds: Double) -> String {
        String(format: "%.2f", microseconds)
    }
}
