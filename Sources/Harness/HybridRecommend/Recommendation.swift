public import HybridConfig
public import HybridConfigTools

/// The outcome of `hybrid recommend`: per-feature decisions and the config document to publish.
public struct Recommendation: Sendable {
    /// The config the recommendation started from.
    public var base: HybridConfigDocument
    /// The proposed config: version + 1, changed priorities and default variants, provenance in `description`.
    public var document: HybridConfigDocument
    /// One decision per feature recommended on.
    public var features: [FeatureRecommendation]
    /// Things that apply to the whole recommendation (runs ignored and why).
    public var notes: [String]

    /// Creates a recommendation; `Recommender` builds these.
    public init(base: HybridConfigDocument, document: HybridConfigDocument, features: [FeatureRecommendation], notes: [String] = []) {
        self.base = base
        self.document = document
        self.features = features
        self.notes = notes
    }

    /// True when some feature's priority or default variant changes.
    public var changesRouting: Bool { features.contains { $0.decision == .change } }

    /// What would change, in `ConfigDiff`'s words.
    public var changes: [ConfigChange] { ConfigDiff.changes(from: base, to: document) }

    /// The human diff of `base` → `document`.
    public var diff: String { ConfigDiff.render(from: base, to: document) }
}
