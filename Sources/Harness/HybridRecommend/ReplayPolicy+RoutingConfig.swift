import HybridConfig
import HybridCore

/// Between a feature of a config and the simulator's `ReplayPolicy`, so that what a recommendation simulated is
/// exactly what the router will do with the config it writes.
extension ReplayPolicy {
    /// The policy the router follows for `feature` in `document` (order and variant left for the caller): its
    /// routing block in force, deadline and privacy class, with `conditions` (the recommendation's floors)
    /// written over the block's output checks and timeout when given.
    static func simulated(feature: String, document: HybridConfigDocument, conditions: [FallbackCondition]? = nil) -> ReplayPolicy {
        let config = document.features[feature]
        var routing = document.routing(for: config) ?? RoutingConfig()
        if let conditions {
            let selection = selection(conditions)
            routing.fallbackOnOutput = selection.isEmpty ? nil : selection.entries
            routing.attemptTimeoutMs = timeoutMs(conditions).map { Int($0.rounded()) }
        }
        return ReplayPolicy(
            order: ["-"], routing: routing, deadlineMs: config?.deadlineMs, privacy: config?.privacy,
            qualityFloors: conditions ?? [])
    }

    /// Throws for conditions the router cannot evaluate (quality scores).
    static func checkRoutable(_ fallback: [FallbackCondition], feature: String) throws(RecommendError) {
        for condition in fallback {
            if case .quality = condition { throw .conditionNotRoutable(feature: feature, condition: condition.description) }
        }
    }

    /// The routing block that makes the router walk as `policy` was simulated, over the feature's existing block
    /// (its cooldowns and streaming stay unless the policy sets them). Every error kind is written out, so an app's own `RouterDefaults`
    /// cannot make the router differ from the simulation. Output checks the feature does not have are left out:
    /// they never fail, so the simulation is the same, and the validator refuses a fallback on a check it lacks.
    static func routingConfig(for policy: ReplayPolicy, feature: FeatureConfig) -> RoutingConfig {
        var block = feature.routing ?? RoutingConfig()
        let rules = policy.rules
        block.attemptTimeoutMs = policy.routing.attemptTimeoutMs ?? 0  // 0: none, not the document's or the app's
        block.rateLimitCooldownMs = policy.routing.rateLimitCooldownMs ?? block.rateLimitCooldownMs
        block.quotaCooldownMs = policy.routing.quotaCooldownMs ?? block.quotaCooldownMs
        block.streaming = policy.routing.streaming ?? block.streaming
        block.hedge = policy.routing.hedge
        block.onError = Dictionary(
            uniqueKeysWithValues: GenerationError.Kind.allCases.map { ($0.rawValue, rules.action(for: $0) == .stop ? .stop : .fallback) })
        var selection = rules.outputFallback
        let produced = OutputChecks(schema: feature.outputSchema, constraints: feature.constraints).resultNamesProduced
        selection.schema = selection.schema && feature.outputSchema != nil
        selection.allConstraints = selection.allConstraints && !produced.subtracting(OutputChecks.schemaResultNames).isEmpty
        selection.names = selection.names.intersection(produced)
        block.fallbackOnOutput = selection.entries
        block.whenChecksFail = rules.whenChecksFail
        if !selection.isEmpty || (block.attemptTimeoutMs ?? 0) > 0 { block.streaming = .buffered }
        return block
    }
}
