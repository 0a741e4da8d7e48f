package import HybridCore

/// What a feature changes under one condition (its `overrides` entry named after the condition). Fields left out
/// keep the feature's own value; `variants` replaces or adds the named variants only.
///
/// ```json
/// "overrides": {
///   "older-phones": {"priority": ["cloud-mini", "on-device"], "deadlineMs": 4000},
///   "german": {"variants": {"concise": {"template": "Fasse zusammen: {{input}}"}}}
/// }
/// ```
package struct FeatureOverride: Sendable, Hashable, Codable {
    /// The priority order under the condition.
    package var priority: [String]?
    /// The default variant under the condition.
    var defaultVariant: String?
    /// Variants replaced or added under the condition, by name.
    var variants: [String: PromptVariant]?
    /// Generation options under the condition (replacing the feature's as a whole).
    var options: FeatureGenerationOptions?
    /// The routing block under the condition (replacing the feature's as a whole).
    var routing: RoutingConfig?
    /// Output constraints under the condition (replacing the feature's as a whole).
    var constraints: OutputConstraints?
    /// The overall deadline under the condition.
    var deadlineMs: Int?
    /// The monthly budget under the condition.
    var monthlyBudgetUSD: Double?

    /// Creates an override; nil fields keep the feature's values.
    package init(
        priority: [String]? = nil, defaultVariant: String? = nil, variants: [String: PromptVariant]? = nil,
        options: FeatureGenerationOptions? = nil, routing: RoutingConfig? = nil, constraints: OutputConstraints? = nil,
        deadlineMs: Int? = nil, monthlyBudgetUSD: Double? = nil
    ) {
        self.priority = priority
        self.defaultVariant = defaultVariant
        self.variants = variants
        self.options = options
        self.routing = routing
        self.constraints = constraints
        self.deadlineMs = deadlineMs
        self.monthlyBudgetUSD = monthlyBudgetUSD
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case priority, defaultVariant, variants, options, routing, constraints, deadlineMs, monthlyBudgetUSD
    }

    /// `feature` with this override applied (its `overrides` left out: a resolved feature has none).
    package func applied(to feature: FeatureConfig) -> FeatureConfig {
        var out = feature
        out.overrides = nil
        if let priority { out.priority = priority }
        if let defaultVariant { out.defaultVariant = defaultVariant }
        for (name, variant) in variants ?? [:] { out.variants[name] = variant }
        if let options { out.options = options }
        if let routing { out.routing = routing }
        if let constraints { out.constraints = constraints }
        if let deadlineMs { out.deadlineMs = deadlineMs }
        if let monthlyBudgetUSD { out.monthlyBudgetUSD = monthlyBudgetUSD }
        return out
    }

    /// The names of the fields set, in the order above (for plans, diffs and reports).
    package var fieldNames: [String] {
        var out: [String] = []
        if priority != nil { out.append("priority") }
        if defaultVariant != nil { out.append("defaultVariant") }
        if variants != nil { out.append("variants") }
        if options != nil { out.append("options") }
        if routing != nil { out.append("routing") }
        if constraints != nil { out.append("constraints") }
        if deadlineMs != nil { out.append("deadlineMs") }
        if monthlyBudgetUSD != nil { out.append("monthlyBudgetUSD") }
        return out
    }
}
