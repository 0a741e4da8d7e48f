public import HybridCore

/// One app feature (summarize, extract, classify…): its prompts, output contract and routing policy.
///
/// Templates use `{{variable}}` placeholders (see `PromptTemplate`); every variable must be listed in `inputs`.
public struct FeatureConfig: Sendable, Hashable, Encodable {
    /// What the feature does, for people.
    public var description: String?
    /// Names of the values the app supplies at call time; templates may reference only these. Default `["input"]`.
    public var inputs: [String]
    /// System instructions shared by every variant that has none of its own.
    public var instructions: String?
    /// Named prompt variants (A/B arms); at least one.
    public var variants: [String: PromptVariant]
    /// The variant used when no rollout arm applies.
    public var defaultVariant: String
    /// JSON Schema (the subset `JSONSchema` supports) the output must match; nil for free text.
    /// An unsupported keyword fails decoding with its path inside the schema.
    public var outputSchema: JSONSchema?
    /// Soft constraints on the text (sentences, words, characters, must / must-not patterns).
    public var constraints: OutputConstraints?
    /// Generation options for every model of this feature.
    public var options: FeatureGenerationOptions?
    /// Model ids to try, best first; the router falls back along this list.
    public var priority: [String]
    /// Time the feature may take end to end, in milliseconds.
    public var deadlineMs: Int?
    /// Bounds the tiers the priority order may use.
    public var privacy: PrivacyClass
    /// Monthly spending cap in US dollars across metered (paid) models; nil means no cap.
    public var monthlyBudgetUSD: Double?
    /// How the router walks `priority` for this feature, over the document's `routing` defaults.
    public var routing: RoutingConfig?
    /// What the feature's field events may hold (content is left out unless this opts in).
    public var events: FeatureEventsConfig?
    /// Condition name → what changes when that condition holds for the install (see `ConfigCondition`).
    package var overrides: [String: FeatureOverride]?
    /// Rules that route some requests elsewhere by what they hold, first match wins (see `InputRule`).
    package var inputRules: [InputRule]?

    /// Creates a feature config; nothing is checked here, `ConfigValidator` does that.
    public init(
        description: String? = nil,
        inputs: [String] = ["input"],
        instructions: String? = nil,
        variants: [String: PromptVariant],
        defaultVariant: String,
        outputSchema: JSONSchema? = nil,
        constraints: OutputConstraints? = nil,
        options: FeatureGenerationOptions? = nil,
        priority: [String],
        deadlineMs: Int? = nil,
        privacy: PrivacyClass,
        monthlyBudgetUSD: Double? = nil,
        routing: RoutingConfig? = nil,
        events: FeatureEventsConfig? = nil
    ) {
        self.description = description
        self.inputs = inputs
        self.instructions = instructions
        self.variants = variants
        self.defaultVariant = defaultVariant
        self.outputSchema = outputSchema
        self.constraints = constraints
        self.options = options
        self.priority = priority
        self.deadlineMs = deadlineMs
        self.privacy = privacy
        self.monthlyBudgetUSD = monthlyBudgetUSD
        self.routing = routing
        self.events = events
        self.overrides = nil
        self.inputRules = nil
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case description, inputs, instructions, variants, defaultVariant, outputSchema, constraints, options
        case priority, deadlineMs, privacy, monthlyBudgetUSD, routing, events, overrides, inputRules
    }

    /// The deadline as a duration, when one is set.
    var deadline: Duration? { deadlineMs.map { .milliseconds($0) } }

    /// The variant named `name`, or the default variant when `name` is nil or unknown.
    func variant(named name: String? = nil) -> PromptVariant? {
        if let name, let v = variants[name] { return v }
        return variants[defaultVariant]
    }

    /// The system instructions for a variant: its own, else the feature's.
    func instructions(for variant: PromptVariant) -> String? {
        variant.instructions ?? instructions
    }
}
