public import Foundation

/// The whole remote config: versioned models, features and rollouts. Decoded from one JSON document.
///
/// `version` must increase with every published change: the loader refuses a lower version than the one in use.
public struct HybridConfigDocument: Sendable, Hashable, Codable {
    /// Editor hint (`"$schema": "./hybrid-config.schema.json"`); ignored by the loader.
    public var schema: String?
    /// Increases with every published change.
    public var version: Int
    /// What this config is and who or which eval run produced it.
    public var description: String?
    /// Who or which eval run produced it.
    public var provenance: Provenance?
    /// Model id → model.
    public var models: [String: ModelConfig]
    /// Feature name → feature.
    public var features: [String: FeatureConfig]
    /// Feature name → rollout.
    public var rollouts: [String: RolloutConfig]
    /// Routing defaults for every feature; a feature's own `routing` overrides them field by field.
    public var routing: RoutingConfig?

    /// Creates a document; nothing is checked here, `ConfigValidator` does that.
    public init(
        schema: String? = nil,
        version: Int,
        description: String? = nil,
        provenance: Provenance? = nil,
        models: [String: ModelConfig],
        features: [String: FeatureConfig],
        rollouts: [String: RolloutConfig] = [:],
        routing: RoutingConfig? = nil
    ) {
        self.schema = schema
        self.version = version
        self.description = description
        self.provenance = provenance
        self.models = models
        self.features = features
        self.rollouts = rollouts
        self.routing = routing
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schema = "$schema"
        case version, description, provenance, models, features, rollouts, routing
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decodeIfPresent(String.self, forKey: .schema)
        version = try c.decode(Int.self, forKey: .version)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        provenance = try c.decodeIfPresent(Provenance.self, forKey: .provenance)
        models = try c.decode([String: ModelConfig].self, forKey: .models)
        features = try c.decode([String: FeatureConfig].self, forKey: .features)
        rollouts = try c.decodeIfPresent([String: RolloutConfig].self, forKey: .rollouts) ?? [:]
        routing = try c.decodeIfPresent(RoutingConfig.self, forKey: .routing)
    }

    /// Canonical JSON (sorted keys, pretty printed): what `export` and `show` print.
    public func encodedJSON(pretty: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types with string keys cannot fail; an empty body would fail validation loudly.
        return (try? encoder.encode(self)) ?? Data()
    }
}
