import HybridConfig
import HybridCore
import HybridRunner
import HybridStore

/// The check that fails `hybrid eval` when the run measured nothing on a model the feature depends on.
///
/// A run whose on-device model never answered (a llama-server that dies by SIGILL, a missing model file) used to
/// exit 0 with every result "skipped (unavailable)", and reports, recommendations and router checks then judged
/// nothing. The models a feature depends on are its on-device models and the first of its priority order; a cloud
/// model whose API key is simply not set stays "not measured" and does not fail the run.
enum MeasuredNothing {
    /// The exit code of such a run (docs/evaluation.md lists every code).
    static let exitCode: Int32 = 5

    /// How many distinct error messages to show per model.
    static let messagesShown = 3

    /// One message per model the feature depends on that answered none of its results, naming the first distinct
    /// errors in full; empty when every such model answered at least once.
    static func check(
        summary: EvalSummary, plan: EvalPlan, config: HybridConfigDocument, models: [String: any LanguageModel],
        store: any ResultStore
    ) async throws -> [String] {
        let required = requiredModels(plan: plan, config: config)
        var silent: [String] = []
        for id in required where summary.answeredThisSession[id, default: 0] == 0 {
            if case .unavailable(.missingAPIKey) = await models[id]?.availability() { continue }
            // This session answered nothing; a resumed run or another worker may have stored answers already.
            let stored = try await outcomes(of: id, run: plan.runID, store: store)
            guard stored.answered == 0, stored.total > 0 else { continue }
            let reasons = stored.messages.isEmpty ? "" : ":\n" + stored.messages.map { "  - " + $0 }.joined(separator: "\n")
            silent.append("\(id) answered 0 of its \(stored.total) results in run \(plan.runID)\(reasons)")
        }
        return silent
    }

    /// The feature's on-device models and the first of its order, in the order the plan runs them.
    static func requiredModels(plan: EvalPlan, config: HybridConfigDocument) -> [String] {
        var seen: Set<String> = []
        return plan.arms.map(\.modelID).filter { id in
            guard seen.insert(id).inserted else { return false }
            return config.models[id]?.tier == .onDevice || id == plan.featureConfig.priority.first
        }
    }

    /// A model's stored results in a run: how many, how many answered, and the first distinct error messages.
    struct Outcomes {
        var total = 0
        var answered = 0
        var messages: [String] = []
    }

    static func outcomes(of model: String, run: String, store: any ResultStore) async throws -> Outcomes {
        var outcomes = Outcomes()
        try await store.forEachResult(run: run) { result in
            guard result.modelID == model else { return }
            outcomes.total += 1
            guard let error = result.error else {
                outcomes.answered += 1
                return
            }
            if outcomes.messages.count < messagesShown && !outcomes.messages.contains(error.message) {
                outcomes.messages.append(error.message)
            }
        }
        return outcomes
    }
}
