package import HybridConfig
import HybridCore

extension RoutingWalk.Rules {
    /// What one call adds to a feature's settings: the app's per-call privacy and deadline, and whether the answer
    /// must decode into the app's type.
    struct CallSettings: Sendable, Equatable {
        /// A stricter privacy class for this call; a looser one is ignored.
        var privacy: PrivacyClass?
        /// The call's own overall deadline, instead of the feature's.
        var deadline: Duration?
        /// A typed call: an answer the app cannot decode falls back like a failed output check.
        var typedOutput = false

        /// Settings of a plain call: the feature's own.
        init(privacy: PrivacyClass? = nil, deadline: Duration? = nil, typedOutput: Bool = false) {
            self.privacy = privacy
            self.deadline = deadline
            self.typedOutput = typedOutput
        }
    }

    /// The one resolver: the rules of `feature` (already resolved for the install's labels) in `document`, the
    /// feature's `routing` block over the document's, then the app's `defaults` for whatever the config does not
    /// say. The router, the simulator and the router check all come through here, so a routing default or a rule
    /// is decided once; resolved per request, so a config published remotely changes the rules at the next one.
    init(feature: FeatureConfig, document: HybridConfigDocument, defaults: RouterDefaults, call: CallSettings = .init()) {
        self.init(routing: document.routing(for: feature), deadlineMs: feature.deadlineMs, privacy: feature.privacy, defaults: defaults)
        if let stricter = call.privacy, stricter.maximumTier < feature.privacy.maximumTier { privacy = stricter }
        if let deadline = call.deadline { self.deadline = deadline }
        // A typed call's contract is the app's type, its guides included: an answer that breaks its schema or does
        // not decode is no answer, whatever the config's own fallback list says.
        if call.typedOutput {
            outputFallback.schema = true
            outputFallback.names.insert(DecodeCheck.resultName)
        }
    }

    /// The rules of `feature` as an install with `labels` sees it (a condition's override applies); nil when the
    /// document has no such feature. What the simulator and the router check resolve, so they see the router's rules.
    static func resolve(
        document: HybridConfigDocument, feature: String, labels: TargetLabels, installId: String, defaults: RouterDefaults
    ) -> RoutingWalk.Rules? {
        guard let resolved = document.resolve(feature: feature, labels: labels, installId: installId) else { return nil }
        return RoutingWalk.Rules(feature: resolved.config, document: document, defaults: defaults)
    }

    /// A routing block, a deadline and a privacy class over `defaults`: the step both the resolver above and a
    /// replayed policy (an order plus a routing block, no feature) take. Layers meet in one place,
    /// `RoutingConfig.merged(over:)`; what the merged block leaves unset is the walk's own field default.
    package init(routing config: RoutingConfig?, deadlineMs: Int?, privacy: PrivacyClass?, defaults: RouterDefaults) {
        self.init(block: config?.merged(over: defaults.baseRouting) ?? defaults.baseRouting, checksAvailability: defaults.checkAvailability)
        deadline = deadlineMs.map { .milliseconds($0) }
        self.privacy = privacy
    }

    /// The rules one (already layered) routing block says.
    init(block: RoutingConfig, checksAvailability: Bool) {
        self.init()
        self.checksAvailability = checksAvailability
        for (kind, action) in block.errorActions { actions[kind] = action }
        if let selection = block.outputSelection { outputFallback = selection }
        // 0: no per-attempt timeout, whatever a lower layer said.
        if let ms = block.attemptTimeoutMs, ms > 0 { attemptTimeout = .milliseconds(ms) }
        if let ms = block.rateLimitCooldownMs { rateLimitCooldown = .milliseconds(ms) }
        if let ms = block.quotaCooldownMs { quotaCooldown = .milliseconds(ms) }
        if let value = block.whenChecksFail { whenChecksFail = value }
        if let value = block.streaming { streaming = value }
        if let value = block.streamRecovery { streamRecovery = value }
        if let hedge = block.hedge { self.hedge = RoutingWalk.Hedge(config: hedge) }
    }
}
