import HybridCore
import HybridStore

/// The judge's model calls, shared by the rubric and the pairwise judge: priced apart from the arms', answered from
/// the store's response cache when the same judgement was asked before (so `rescore`, a re-run or a resumed pass
/// never pay twice for it), and held to a ``JudgeBudget``.
struct JudgeCaller: Sendable {
    /// One answered call.
    struct Answer: Sendable {
        var text: String
        var usage: TokenUsage
        /// What this call cost now: 0 when the answer came from the cache.
        var costUSD: Double
        var cached: Bool
    }

    var model: any LanguageModel
    var inputPricePerMillion: Double
    var outputPricePerMillion: Double
    var cache: (any ResultStore)?
    var budget: JudgeBudget?

    /// The judge's answer to `request`. The cache key is the judge's model id and the whole request (instructions,
    /// rubric or criteria, the outputs, options and seed), so any change to what the judge sees asks again.
    func call(_ request: GenerationRequest) async throws(GenerationError) -> Answer {
        let key = "judge:" + ContentHash.hex(of: String(model.id.utf8.count) + ":" + model.id + request.cacheIdentity)
        if let cache, let hit = try? await cache.cachedResponse(requestHash: key) {
            return Answer(text: hit.text, usage: hit.usage, costUSD: 0, cached: true)
        }
        let reserved = worstCase(request)
        if let budget, !(await budget.reserve(reserved)) {
            throw .unavailable(model: model.id, reason: .other("the judge budget of $\(budget.limitUSD) is spent"))
        }
        let response: GenerationResponse
        do {
            response = try await model.generate(request)
        } catch {
            await budget?.settle(reserved: reserved, actualUSD: 0)
            throw error
        }
        let cost = price(response.usage)
        await budget?.settle(reserved: reserved, actualUSD: cost)
        try? await cache?.storeCachedResponse(CachedResponseRecord(
            requestHash: key, modelID: model.id, text: response.text, usage: response.usage,
            totalMs: response.timing.total.milliseconds))
        return Answer(text: response.text, usage: response.usage, costUSD: cost, cached: false)
    }

    func price(_ usage: TokenUsage) -> Double {
        (Double(usage.promptTokens) * inputPricePerMillion + Double(usage.completionTokens) * outputPricePerMillion) / 1_000_000
    }

    /// The most the call can cost: a token per character of what is sent (no tokenizer gives more), and every
    /// output token allowed.
    private func worstCase(_ request: GenerationRequest) -> Double {
        let characters = (request.instructions?.count ?? 0) + request.messages.reduce(0) { $0 + $1.content.count }
        return price(TokenUsage(promptTokens: characters, completionTokens: request.options.maxOutputTokens ?? 1_024))
    }
}
