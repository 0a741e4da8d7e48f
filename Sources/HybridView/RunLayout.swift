import HybridStore

/// What a run holds, per feature: its arms with their result counts and the constraint names its results were
/// checked against. Read once per run and kept while the run's result count is unchanged.
struct RunLayout: Sendable {
    /// One feature of the run.
    struct Feature: Sendable {
        var name: String
        var arms: [ArmResultCount]
        var constraintNames: [String]
    }

    /// Stored results when the layout was read.
    var resultCount: Int
    /// Features sorted by name.
    var features: [Feature]

    func feature(_ name: String?) -> Feature? {
        guard let name else { return features.first }
        return features.first { $0.name == name }
    }

    /// Distinct arm ids over every feature, sorted.
    var armIDs: [String] {
        Array(Set(features.flatMap { $0.arms.map(\.armID) })).sorted()
    }
}
