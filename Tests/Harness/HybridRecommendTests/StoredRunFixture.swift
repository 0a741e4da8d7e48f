import Foundation
import HybridConfig
import HybridConfigTools
import HybridCore
import HybridStore

/// Builds stored runs with known answers: every case on every arm, outcomes given per case index.
struct ArmSpec: Sendable {
    var model: String
    var variant = "concise"
    var tier: ModelTier
    var adherent: @Sendable (Int) -> Bool = { _ in true }
    var failed: @Sendable (Int) -> Bool = { _ in false }
    var latencyMs: @Sendable (Int) -> Double = { _ in 100 }
    /// When a streamed answer's first text came; nil: not streamed.
    var ttftMs: @Sendable (Int) -> Double? = { _ in nil }
    var costUSD: Double? = 0
    var scores: [String: @Sendable (Int) -> Double] = [:]

    var armID: String { "\(variant)@\(model)" }
}

enum StoredRunFixture {
    static func store(runID: String = "run-1", feature: String = "summarize", cases: Int, arms: [ArmSpec]) async throws -> SQLiteResultStore {
        let store = SQLiteResultStore(database: try HybridDatabase.inMemory())
        try await add(to: store, runID: runID, feature: feature, cases: cases, arms: arms)
        return store
    }

    static func add(to store: SQLiteResultStore, runID: String, feature: String = "summarize", cases: Int, arms: [ArmSpec]) async throws {
        try await store.createRun(RunRecord(
            id: runID, features: [feature], datasetPath: "memory.jsonl", datasetHash: "h", plannedCount: cases * arms.count, seed: 1))
        var records: [ResultRecord] = []
        for i in 0..<cases {
            for arm in arms {
                let key = ResultKey(runID: runID, caseID: String(format: "c%02d", i), armID: arm.armID, repeatIndex: 0)
                if arm.failed(i) {
                    records.append(ResultRecord(
                        key: key, feature: feature, promptVariant: arm.variant, modelID: arm.model, tier: arm.tier,
                        renderedPromptHash: "p\(i)", rawOutput: nil, usage: nil, timings: ResultTimings(totalMs: 0),
                        error: ResultError(kind: "server_error", message: "boom")))
                } else {
                    records.append(ResultRecord(
                        key: key, feature: feature, promptVariant: arm.variant, modelID: arm.model, tier: arm.tier,
                        renderedPromptHash: "p\(i)", rawOutput: "output \(i)",
                        usage: TokenUsage(promptTokens: 10, completionTokens: 5),
                        timings: ResultTimings(ttftMs: arm.ttftMs(i), totalMs: arm.latencyMs(i)), costUSD: arm.costUSD,
                        constraints: [ConstraintOutcome(name: "max_words", passed: arm.adherent(i))],
                        scores: arm.scores.map { QualityScore(scorer: $0.key, value: $0.value(i)) }))
                }
            }
        }
        try await store.insertResults(records)
    }

    /// A valid config with the given models (id → tier, price per million tokens) and one `summarize` feature.
    static func config(models: [(id: String, tier: ModelTier, price: Double)], priority: [String], variants: [String] = ["concise"]) throws -> HybridConfigDocument {
        var document = try HybridConfigDocument.bundledDefaults().document
        document.models = [:]
        for model in models {
            document.models[model.id] = ModelConfig(
                kind: .openAICompatible, baseURL: "https://models.example.com/v1", model: model.id, tier: model.tier,
                apiKeyEnv: model.tier == .onDevice ? nil : "TEST_\(model.id.uppercased())_KEY",
                pricing: ModelPricing(inputPerMillion: model.price, outputPerMillion: model.price), contextWindow: 8192,
                capabilities: .init(structuredOutput: true, streaming: true))
        }
        var feature = document.features["summarize"]!
        feature.variants = feature.variants.filter { variants.contains($0.key) }
        for variant in variants where feature.variants[variant] == nil {
            feature.variants[variant] = PromptVariant(template: "Summarize ({{input}})")
        }
        feature.defaultVariant = variants[0]
        feature.priority = priority
        document.features = ["summarize": feature]
        document.rollouts = [:]
        return document
    }
}
