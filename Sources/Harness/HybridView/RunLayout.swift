import HybridStore

/// What a run holds, per feature: its arms with their result counts and the constraint names its results were
/// checked against. Read once per run and kept while the run's result count is unchanged.
struct RunLayout: Sendable {
    /// One feature of the run.
    struct Feature: Sendable {
        var name: String
        var arms: [ArmResultCount]
        var constraintNames: [String]
        /// Distinct case ids of the feature.
        var caseCount: Int
    }

    /// Stored results when the layout was read.
    var resultCount: Int
    /// Features sorted by name.
    var features: [Feature]

    /// The feature condition for store queries: none in a one-feature run, where every row is that feature's, so
    /// SQLite answers from the `(run_id, case_id, …)` index alone instead of visiting each row to read its feature.
    static func scope(_ feature: String, of features: [String]) -> String? {
        features.count > 1 ? feature : nil
    }

    func feature(_ name: String?) -> Feature? {
        guard let name else { return features.first }
        return features.first { $0.name == name }
    }

    /// Distinct arm ids over every feature, sorted.
    var armIDs: [String] {
        Array(Set(features.flatMap { $0.arms.map(\.armID) })).sorted()
    }
}
