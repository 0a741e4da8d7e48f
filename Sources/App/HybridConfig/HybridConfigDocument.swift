public import Foundation

/// The whole remote config: versioned models, features and rollouts. Decoded from one JSON document.
///
/// `version` must increase with every published change: the loader refuses a lower version than the one in use.
public struct HybridConfigDocument: Sendable, Hashable, Encodable {
    /// Editor hint (`"$schema": "./hybrid-config.schema.json"`); ignored by the loader.
    var schema: String?
    /// Increases with every published change.
    public var version: Int
    /// What this config is and who or which eval run produced it.
    public var description: String?
    /// Who or which eval run produced it.
    package var provenance: Provenance?
    /// Model id → model.
    public var models: [String: ModelConfig]
    /// Feature name → feature.
    public var features: [String: FeatureConfig]
    /// Feature name → rollout.
    package var rollouts: [String: RolloutConfig]
    /// Routing defaults for every feature; a feature's own `routing` overrides them field by field.
    public var routing: RoutingConfig?
    /// Named conditions on the app's labels, in evaluation order; features' `overrides` refer to them.
    package var conditions: [ConfigCondition]
    /// The custom label names the app sets (`eventLabels`) that conditions may test, beside the built-in ones; a
    /// condition on any other label is refused at publish (JSON key `labels`).
    var labels: [String]?
    /// The document format it was written for (JSON key `schemaVersion`, default 1). A document for a newer format
    /// than ``ConfigValidator/schemaVersion`` may carry keys this library does not know; an app refuses unknown keys
    /// otherwise, keeping its last good config, because a misspelt key silently drops what it meant.
    var schemaVersion: Int?

    /// Creates a document built in code (declared models, a bundled default); nothing is checked here,
    /// `ConfigValidator` and the `Router` initialisers do that. Rollouts, conditions and provenance are what
    /// operators publish remotely, so they are read from JSON, not set in app code.
    public init(
        schema: String? = nil,
        version: Int,
        description: String? = nil,
        models: [String: ModelConfig],
        features: [String: FeatureConfig],
        routing: RoutingConfig? = nil
    ) {
        self.schema = schema
        self.version = version
        self.description = description
        self.models = models
        self.features = features
        self.rollouts = [:]
        self.routing = routing
        self.conditions = []
    }

    /// Every field, as the JSON readers fill them.
    init(
        schema: String?, version: Int, description: String?, provenance: Provenance?, models: [String: ModelConfig],
        features: [String: FeatureConfig], rollouts: [String: RolloutConfig], routing: RoutingConfig?, conditions: [ConfigCondition]
    ) {
        self.init(schema: schema, version: version, description: description, models: models, features: features, routing: routing)
        self.provenance = provenance
        self.rollouts = rollouts
        self.conditions = conditions
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schema = "$schema"
        case version, description, provenance, models, features, rollouts, routing, conditions, labels, schemaVersion
    }

    // Written out so a document without conditions encodes as before (its canonical JSON and hash unchanged).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(schema, forKey: .schema)
        try c.encode(version, forKey: .version)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(provenance, forKey: .provenance)
        try c.encode(models, forKey: .models)
        try c.encode(features, forKey: .features)
        try c.encode(rollouts, forKey: .rollouts)
        try c.encodeIfPresent(routing, forKey: .routing)
        if !conditions.isEmpty { try c.encode(conditions, forKey: .conditions) }
        try c.encodeIfPresent(labels, forKey: .labels)
        try c.encodeIfPresent(schemaVersion, forKey: .schemaVersion)
    }

    /// Canonical JSON (sorted keys, pretty printed): what `export` and `show` print.
    public func encodedJSON(pretty: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types with string keys cannot fail; an empty body would fail validation loudly.
        return (try? encoder.encode(self)) ?? Data()
    }
}
