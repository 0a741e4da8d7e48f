extension HybridConfigDocument {
    /// The variant and priority order `installId` gets for `feature`, or nil when the feature is not defined.
    package func assignment(feature: String, installId: String) -> FeatureAssignment? {
        features[feature].map { assignment(feature: feature, config: $0, installId: installId) }
    }

    /// The variant and priority order `installId` gets for `feature` as `config` (resolved for the install's
    /// labels) defines it: a rollout arm overrides the resolved defaults.
    package func assignment(feature: String, config: FeatureConfig, installId: String) -> FeatureAssignment {
        var result = FeatureAssignment(
            feature: feature, variant: config.defaultVariant, priority: config.priority, arm: nil, inputRules: config.inputRules ?? [])
        if let rollout = rollouts[feature], let arm = RolloutBucketing.arm(for: installId, feature: feature, rollout: rollout) {
            result.arm = arm.name
            if let variant = arm.variant { result.variant = variant }
            if let priority = arm.priority { result.priority = priority }
            if let rules = arm.inputRules { result.inputRules = rules }
        }
        return result
    }
}
