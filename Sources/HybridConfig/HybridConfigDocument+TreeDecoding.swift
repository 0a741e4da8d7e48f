import HybridCore

/// The start-up fast path: the document read straight from its parsed tree by ``ConfigTreeReader``.
///
/// The bulk of a large config is features, so features and everything inside them are spelled out here; the few
/// models, rollouts and routing blocks go through the tree decoder. Field by field this mirrors the `Decodable`
/// conformances (`init(from:)` of each type): keep the two in step when a field is added.
extension HybridConfigDocument {
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        var r = try ConfigTreeReader(tree)
        self.init(
            schema: try r.optionalString("$schema"),
            version: try ConfigTreeReader.int(try r.required("version")),
            description: try r.optionalString("description"),
            provenance: try r.optionalDecoded(Provenance.self, "provenance"),
            models: try r.map("models") { (value) throws(ConfigTreeReader.Refusal) in
                try ConfigTreeReader.decoded(ModelConfig.self, value)
            },
            features: try r.map("features", FeatureConfig.init(tree:)),
            rollouts: try r.optional("rollouts").map { (value) throws(ConfigTreeReader.Refusal) in
                try ConfigTreeReader.decoded([String: RolloutConfig].self, value)
            } ?? [:],
            routing: try r.optionalDecoded(RoutingConfig.self, "routing"),
            conditions: try r.optionalDecoded([ConfigCondition].self, "conditions") ?? []
        )
        try r.requireAllRead()
    }
}

extension FeatureConfig {
    /// One pass over the feature's members, each matched by name: a large config has hundreds of features, and a
    /// lookup per field (present or not) hashed every field name of every feature.
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.Refusal() }
        var f = Fields()
        for (key, value) in members {
            try f.read(key, value)
        }
        guard let variants = f.variants, let defaultVariant = f.defaultVariant, let priority = f.priority,
            let privacy = f.privacy
        else { throw ConfigTreeReader.Refusal() }
        self.init(
            description: f.description, inputs: f.inputs ?? ["input"], instructions: f.instructions, variants: variants,
            defaultVariant: defaultVariant, outputSchema: f.outputSchema, constraints: f.constraints, options: f.options,
            priority: priority, deadlineMs: f.deadlineMs, privacy: privacy, monthlyBudgetUSD: f.monthlyBudgetUSD,
            routing: f.routing, events: f.events)
        overrides = f.overrides
    }

    /// The fields read so far; a `null` optional stays nil (what `decodeIfPresent` does), a `null` required field
    /// is refused by its reader.
    private struct Fields {
        var description: String?
        var inputs: [String]?
        var instructions: String?
        var variants: [String: PromptVariant]?
        var defaultVariant: String?
        var outputSchema: JSONSchema?
        var constraints: OutputConstraints?
        var options: FeatureGenerationOptions?
        var priority: [String]?
        var deadlineMs: Int?
        var privacy: PrivacyClass?
        var monthlyBudgetUSD: Double?
        var routing: RoutingConfig?
        var events: FeatureEventsConfig?
        var overrides: [String: FeatureOverride]?

        typealias Refusal = ConfigTreeReader.Refusal

        /// Reads one member; a key `Decodable` does not know is refused (it would ignore it, and report it as unknown).
        mutating func read(_ key: String, _ value: JSONValue) throws(Refusal) {
            switch key {
            case "variants": variants = try ConfigTreeReader.map(value, PromptVariant.init(tree:))
            case "defaultVariant": defaultVariant = try ConfigTreeReader.string(value)
            case "priority": priority = try ConfigTreeReader.strings(value)
            case "privacy":
                guard let privacy = PrivacyClass(rawValue: try ConfigTreeReader.string(value)) else { throw Refusal() }
                self.privacy = privacy
            default: try readOptional(key, value)
            }
        }

        private mutating func readOptional(_ key: String, _ value: JSONValue) throws(Refusal) {
            if case .null = value {
                guard CodingKeys(rawValue: key) != nil else { throw Refusal() }
                return
            }
            switch key {
            case "description": description = try ConfigTreeReader.string(value)
            case "inputs": inputs = try ConfigTreeReader.strings(value)
            case "instructions": instructions = try ConfigTreeReader.string(value)
            case "outputSchema":
                do { outputSchema = try JSONSchema(value) } catch { throw Refusal() }
            case "constraints": constraints = try OutputConstraints(tree: value)
            case "options": options = try FeatureGenerationOptions(tree: value)
            case "deadlineMs": deadlineMs = try ConfigTreeReader.int(value)
            case "monthlyBudgetUSD": monthlyBudgetUSD = try ConfigTreeReader.double(value)
            case "routing": routing = try ConfigTreeReader.decoded(RoutingConfig.self, value)
            case "events": events = try FeatureEventsConfig(tree: value)
            case "overrides": overrides = try ConfigTreeReader.decoded([String: FeatureOverride].self, value)
            default: throw Refusal()
            }
        }
    }
}

extension PromptVariant {
    /// One pass over the members, as for features (every feature has variants); `null` leaves a field unset, an
    /// unknown key is refused.
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.Refusal() }
        var instructions: String?
        var template: String?
        var templateFile: String?
        for (key, value) in members {
            let text: String? = if case .null = value { nil } else { try ConfigTreeReader.string(value) }
            switch key {
            case "template": template = text
            case "instructions": instructions = text
            case "templateFile": templateFile = text
            default: throw ConfigTreeReader.Refusal()
            }
        }
        self.init(instructions: instructions, template: template, templateFile: templateFile)
    }
}

extension FeatureGenerationOptions {
    /// One pass over the members, as for variants; `null` leaves a field unset, an unknown key is refused.
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.Refusal() }
        self.init()
        for (key, value) in members {
            let isNull = if case .null = value { true } else { false }
            switch key {
            case "temperature": temperature = isNull ? nil : try ConfigTreeReader.double(value)
            case "maxOutputTokens": maxOutputTokens = isNull ? nil : try ConfigTreeReader.int(value)
            case "topP": topP = isNull ? nil : try ConfigTreeReader.double(value)
            case "seed": seed = isNull ? nil : try ConfigTreeReader.int(value)
            default: throw ConfigTreeReader.Refusal()
            }
        }
    }
}

extension FeatureEventsConfig {
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        var r = try ConfigTreeReader(tree)
        self.init(includeContent: try r.optionalBool("includeContent") ?? false)
        try r.requireAllRead()
    }
}

extension OutputConstraints {
    /// Unknown keys are refused: the `Decodable` path reports them as errors. One pass over the members, as for
    /// features: every feature of a large config has constraints.
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.Refusal() }
        self.init()
        for (key, value) in members {
            try read(key, value)
        }
    }

    /// One member; `null` leaves the field unset, as `decodeIfPresent` does.
    private mutating func read(_ key: String, _ value: JSONValue) throws(ConfigTreeReader.Refusal) {
        let isNull = if case .null = value { true } else { false }
        func int() throws(ConfigTreeReader.Refusal) -> Int? { isNull ? nil : try ConfigTreeReader.int(value) }
        switch key {
        case "minSentences": minSentences = try int()
        case "maxSentences": maxSentences = try int()
        case "minWords": minWords = try int()
        case "maxWords": maxWords = try int()
        case "maxCharacters": maxCharacters = try int()
        case "singleParagraph": singleParagraph = isNull ? nil : try ConfigTreeReader.bool(value)
        // `JSONValue?.none`, not `nil`: JSONValue is itself nil-literal expressible (as `.null`).
        case "mustContain": mustContain = try Self.patterns(isNull ? JSONValue?.none : value)
        case "mustNotContain": mustNotContain = try Self.patterns(isNull ? JSONValue?.none : value)
        default: throw ConfigTreeReader.Refusal()
        }
    }

    /// A string is a phrase, `{"regex": "…"}` (nothing else) a regex.
    private static func patterns(_ value: JSONValue?) throws(ConfigTreeReader.Refusal) -> [TextPattern] {
        guard let value else { return [] }
        guard case .array(let elements) = value else { throw ConfigTreeReader.Refusal() }
        var result: [TextPattern] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            if case .string(let phrase) = element {
                result.append(.phrase(phrase))
                continue
            }
            var r = try ConfigTreeReader(element)
            guard r.members.count == 1 else { throw ConfigTreeReader.Refusal() }
            result.append(.regex(try r.string("regex")))
        }
        return result
    }
}
