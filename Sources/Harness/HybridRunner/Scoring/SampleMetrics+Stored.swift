import HybridStore

extension SampleMetrics {
    /// The checks as the store keeps them.
    var constraintOutcomes: [ConstraintOutcome] {
        constraints.map { ConstraintOutcome(name: $0.name, passed: $0.passed, observed: $0.observed, message: $0.message) }
    }

    /// The quality scores as the store keeps them, by scorer name.
    var qualityScores: [QualityScore] {
        quality.keys.sorted().map { QualityScore(scorer: $0, value: quality[$0]!) }
    }
}
