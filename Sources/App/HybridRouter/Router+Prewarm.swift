import HybridConfig
import HybridCore

extension Router {
    /// Gets `feature`'s first-choice model ready before the user asks, so the first request does not pay for
    /// start-up: a local llama.cpp server starts and warms, Foundation Models prewarms (`LanguageModel.prepare()`).
    ///
    /// Walks this install's priority order for the feature and prepares the first model a request would reach: one
    /// the resolved privacy class allows (a condition's override included), not resting after a rate limit,
    /// available, and preparing without error. Call it when a screen that offers the feature appears.
    /// - Returns: the id of the model prepared, or nil when none could be.
    @discardableResult
    public func prewarm(feature name: String) async throws(RouterError) -> String? {
        let document = await configSource.document()
        let (resolved, assignment) = try resolve(name, in: document)
        let rules = RoutingWalk.Rules(feature: resolved.config, document: document, defaults: policy)
        for id in assignment.priority {
            guard let candidate = candidate(id, document: document), rules.privacy?.allows(tier: candidate.model.tier) ?? true,
                restRemaining(id) == nil, await candidate.model.availability().isAvailable
            else { continue }
            do {
                try await candidate.model.prepare()
                return id
            } catch {
                continue  // As a request would: the next model in the order is the one that would serve.
            }
        }
        return nil
    }
}
