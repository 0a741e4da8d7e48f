/// A feature as one install sees it: the first condition (in the document's order) that holds for the install's
/// labels and that the feature overrides, applied.
package struct ResolvedFeature: Sendable, Hashable {
    /// The feature with the override applied (or as written, when no condition matched).
    package var config: FeatureConfig
    /// The condition whose override applies; nil when none did.
    package var condition: String?
}

extension HybridConfigDocument {
    /// `feature` as an install with `labels` sees it; nil when the document has no such feature.
    ///
    /// Cheap when the document has no conditions (the feature is returned as is); otherwise one pass over the
    /// conditions the feature overrides.
    package func resolve(feature name: String, labels: [String: String], installId: String) -> ResolvedFeature? {
        resolve(feature: name, labels: TargetLabels(labels), installId: installId)
    }

    /// `feature` as an install with `labels` sees it, the labels' versions parsed once by the caller.
    package func resolve(feature name: String, labels: TargetLabels, installId: String) -> ResolvedFeature? {
        guard let feature = features[name] else { return nil }
        guard let overrides = feature.overrides, !overrides.isEmpty else { return ResolvedFeature(config: feature, condition: nil) }
        for condition in conditions {
            guard let override = overrides[condition.name], condition.matches(labels, installId: installId) else { continue }
            return ResolvedFeature(config: override.applied(to: feature), condition: condition.name)
        }
        var plain = feature
        plain.overrides = nil
        return ResolvedFeature(config: plain, condition: nil)
    }

    /// The document as an install with `labels` sees it: every feature resolved, conditions dropped. What a harness
    /// run "as an iOS 18 phone on app 3.1" evaluates (`hybrid eval --label`), and what it stores with the run.
    package func resolved(labels: [String: String], installId: String) -> (document: HybridConfigDocument, conditions: [String: String]) {
        let labels = TargetLabels(labels)
        var out = self
        var matched: [String: String] = [:]
        for name in features.keys {
            guard let resolved = resolve(feature: name, labels: labels, installId: installId) else { continue }
            out.features[name] = resolved.config
            if let condition = resolved.condition { matched[name] = condition }
        }
        out.conditions = []
        return (out, matched)
    }
}
