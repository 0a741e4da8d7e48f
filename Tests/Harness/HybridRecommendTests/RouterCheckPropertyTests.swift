import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridReport
import HybridStore
import Testing

@Suite("Simulator against the real router")
struct RouterCheckPropertyTests {
    static let models = ["m0", "m1", "m2"]
    static let schema: JSONValue = [
        "type": "object", "required": ["topics"],
        "properties": ["topics": ["type": "array", "items": ["type": "string"], "minItems": 1]],
    ]
    /// Answers that pass, fail the schema, fail to parse, or fail only the word limit.
    static let answers = [
        #"{"topics": ["rent"]}"#, #"{"topics": []}"#, "not json at all", #"{"topics": ["one two three four five six seven eight nine"]}"#,
        #"{"topics": ["a", "b"]}"#,
    ]
    static let errorKinds = ["server_error", "rate_limited", "refusal", "timeout", "unavailable", "authentication", "decoding_failure"]

    /// The feature every table is for: the topics schema and a soft word limit, checked as the runner does.
    static func document(models: [String]) throws -> HybridConfigDocument {
        var document = try StoredRunFixture.config(models: models.map { ($0, ModelTier.privateCloud, 1.0) }, priority: models)
        document.features["summarize"]?.outputSchema = try JSONSchema(schema)
        document.features["summarize"]?.constraints = OutputConstraints(maxWords: 8)
        return document
    }

    /// How a random table draws each call's cost and latency; which calls fail, with what, and the answers are
    /// drawn alike for every table.
    struct Draws: Sendable {
        var cost: @Sendable (inout SplitMix64) -> Double?
        var latency: @Sendable (inout SplitMix64, _ failed: Bool) -> Double
        /// An answer's time to first token (a streamed run); nil: not streamed.
        var ttft: @Sendable (inout SplitMix64, _ latency: Double) -> Double? = { _, _ in nil }

        /// Half the calls priced; failures at once, answers on a 0.5 ms grid up to 3 s, often equal to a timeout.
        static let property = Draws(
            cost: { rng in Bool.random(using: &rng) ? Double(Int.random(in: 0...5000, using: &rng)) / 1e6 : nil },
            latency: { rng, failed in failed ? 0 : Double(Int.random(in: 0...6000, using: &rng)) / 2 })
    }

    /// A random outcome table stored as the runner stores it: constraints computed on the text by `OutputChecks`.
    static func storeTable(
        _ rng: inout SplitMix64, cases: Int, document: HybridConfigDocument, draws: Draws = .property
    ) async throws -> SQLiteResultStore {
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        try await store.createRun(RunRecord(
            id: "run", features: ["summarize"], datasetPath: "memory.jsonl", datasetHash: "h", plannedCount: cases * models.count, seed: 1))
        let feature = document.features["summarize"]!
        let checks = OutputChecks(schema: feature.outputSchema, constraints: feature.constraints)
        var records: [ResultRecord] = []
        for i in 0..<cases {
            for model in models {
                let key = ResultKey(runID: "run", caseID: String(format: "c%02d", i), armID: "concise@\(model)", repeatIndex: 0)
                let cost = draws.cost(&rng)
                let failed = Int.random(in: 0..<4, using: &rng) == 0
                let latency = draws.latency(&rng, failed)
                if failed {
                    let kind = errorKinds.randomElement(using: &rng)!
                    records.append(ResultRecord(
                        key: key, feature: "summarize", promptVariant: "concise", modelID: model, tier: .privateCloud,
                        renderedPromptHash: "p", rawOutput: nil, usage: nil, timings: ResultTimings(totalMs: latency), costUSD: cost,
                        error: ResultError(kind: kind, message: "generated \(kind)")))
                    continue
                }
                let text = answers.randomElement(using: &rng)!
                records.append(ResultRecord(
                    key: key, feature: "summarize", promptVariant: "concise", modelID: model, tier: .privateCloud,
                    renderedPromptHash: "p", rawOutput: text, usage: TokenUsage(promptTokens: 10, completionTokens: 5),
                    timings: ResultTimings(ttftMs: draws.ttft(&rng, latency), totalMs: latency), costUSD: cost,
                    constraints: checks.evaluate(text).results.map { ConstraintOutcome(name: $0.name, passed: $0.passed) }))
            }
        }
        try await store.insertResults(records)
        return store
    }

    /// A random policy of the kind `hybrid recommend` emits: an order, output checks, an attempt timeout, stops,
    /// a deadline and what to return when every check fails.
    static func policy(_ rng: inout SplitMix64) -> ReplayPolicy {
        let order = Array(models.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)))
        var fallback: [FallbackCondition] = []
        let outputs: [FallbackCondition] = [.adherence, .check("schema"), .check("constraints"), .check("max_words"), .check("json_parses")]
        for condition in outputs where Int.random(in: 0..<4, using: &rng) == 0 { fallback.append(condition) }
        if Bool.random(using: &rng) { fallback.append(.timeout(milliseconds: [500, 1000, 1500, 2000].randomElement(using: &rng)!)) }
        let stops = Set(errorKinds.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 })
        let deadline: Int? = Bool.random(using: &rng) ? [1000, 2500, 4000].randomElement(using: &rng)! : nil
        return ReplayPolicy(
            order: order, variant: "concise", fallback: fallback, stopOn: stops, deadlineMs: deadline,
            whenChecksFail: Bool.random(using: &rng) ? .returnBest : .throwError)
    }

    /// The router check of `policy` (its deadline on the feature) over the run in `store`; nil, with the report
    /// recorded as an issue, when any case disagrees.
    static func agreeingReport(
        _ policy: ReplayPolicy, base: HybridConfigDocument, store: SQLiteResultStore, seed: UInt64
    ) async throws -> RouterCheckReport? {
        var document = try RouterCheck.applying(policy, feature: "summarize", to: base)
        document.features["summarize"]?.deadlineMs = policy.deadlineMs.map { Int($0) }
        let report = try await RouterCheck(document: document).run(store: store, run: "run")
        guard report.allAgree else {
            Issue.record("seed \(seed), policy \(policy):\n\(report.render())")
            return nil
        }
        return report
    }

    @Test("random outcome tables and random recommendable policies: the router does what the simulator predicts, every case")
    func fullAgreement() async throws {
        let base = try Self.document(models: Self.models)
        var checked = 0
        for seed in UInt64(1)...60 {
            var rng = SplitMix64(seed: seed)
            let store = try await Self.storeTable(&rng, cases: 12, document: base)
            for _ in 0..<3 {
                guard let report = try await Self.agreeingReport(Self.policy(&rng), base: base, store: store, seed: seed) else { return }
                checked += report.cases.count
            }
        }
        #expect(checked == 60 * 3 * 12)
    }

    @Test("a quality condition cannot be written into a routing block")
    func qualityIsRefused() throws {
        let policy = ReplayPolicy(order: ["m0"], fallback: [.quality(scorer: "token_f1", minimum: 0.5)])
        #expect(throws: RecommendError.self) { try RouterCheck.applying(policy, feature: "summarize", to: try Self.document(models: Self.models)) }
    }
}
