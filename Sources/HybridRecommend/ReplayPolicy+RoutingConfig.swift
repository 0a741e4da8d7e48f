import HybridConfig
import HybridCore

/// Translation between the simulator's `ReplayPolicy` and the config's `routing` block, so that what a
/// recommendation simulated is exactly what the router will do with the config it writes.
extension ReplayPolicy {
    /// Error kinds the router stops on for `feature` in `document` when the app's `RouterDefaults` is the default:
    /// refusals and cancellations, changed by the routing block in force.
    static func stopKinds(feature: String, document: HybridConfigDocument) -> Set<String> {
        var stops: Set<String> = [GenerationError.Kind.refusal.rawValue, GenerationError.Kind.cancelled.rawValue]
        for (kind, action) in document.routing(feature: feature)?.onError ?? [:] {
            if action == .stop { stops.insert(kind) } else { stops.remove(kind) }
        }
        return stops
    }

    /// The simulator's policy for `feature` as its routing block in `document` says (order and variant left for the
    /// caller): conditions, stops, the feature's deadline and what a request gets when every check failed.
    static func simulated(feature: String, document: HybridConfigDocument, fallback: [FallbackCondition]) -> ReplayPolicy {
        let routing = document.routing(feature: feature)
        return ReplayPolicy(
            order: ["-"], fallback: fallback, stopOn: stopKinds(feature: feature, document: document),
            deadlineMs: document.features[feature]?.deadlineMs.map(Double.init),
            whenChecksFail: routing?.whenChecksFail ?? .returnBest)
    }

    /// The conditions of `fallback` as a routing block's output checks and attempt timeout; throws for conditions
    /// the router cannot evaluate (quality scores).
    static func checkRoutable(_ fallback: [FallbackCondition], feature: String) throws(RecommendError) {
        for condition in fallback {
            if case .quality = condition { throw .conditionNotRoutable(feature: feature, condition: condition.description) }
        }
    }

    /// The routing block that makes the router walk as `policy` was simulated, over the feature's existing block
    /// (cooldowns and other fields it does not decide stay). Every error kind is written out, so an app's own
    /// `RouterDefaults` cannot make the router differ from the simulation.
    /// Output checks the feature does not have are left out: they never fail, so the simulation is the same, and
    /// the validator refuses a fallback on a check the feature lacks.
    static func routingConfig(for policy: ReplayPolicy, feature: FeatureConfig) -> RoutingConfig {
        var block = feature.routing ?? RoutingConfig()
        var actions: [String: RoutingConfig.ErrorAction] = [:]
        for kind in GenerationError.Kind.allCases {
            actions[kind.rawValue] = policy.stopOn.contains(kind.rawValue) ? .stop : .fallback
        }
        block.onError = actions
        var selection = policy.outputSelection
        let produced = OutputChecks(schema: feature.outputSchema, constraints: feature.constraints).resultNamesProduced
        selection.schema = selection.schema && feature.outputSchema != nil
        selection.allConstraints = selection.allConstraints && !produced.subtracting(OutputChecks.schemaResultNames).isEmpty
        selection.names = selection.names.intersection(produced)
        block.fallbackOnOutput = selection.entries
        block.attemptTimeoutMs = policy.timeoutMs.map { Int($0.rounded()) }
        block.whenChecksFail = policy.whenChecksFail
        if !selection.isEmpty || policy.timeoutMs != nil { block.streaming = .buffered }
        return block
    }
}
