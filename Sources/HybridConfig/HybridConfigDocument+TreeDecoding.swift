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
            routing: try r.optionalDecoded(RoutingConfig.self, "routing")
        )
        try r.requireAllRead()
    }
}

extension FeatureConfig {
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        var r = try ConfigTreeReader(tree)
        guard let privacy = PrivacyClass(rawValue: try r.string("privacy")) else { throw ConfigTreeReader.Refusal() }
        self.init(
            description: try r.optionalString("description"),
            inputs: try r.optionalStrings("inputs") ?? ["input"],
            instructions: try r.optionalString("instructions"),
            variants: try r.map("variants", PromptVariant.init(tree:)),
            defaultVariant: try r.string("defaultVariant"),
            outputSchema: try r.optional("outputSchema").map { (value) throws(ConfigTreeReader.Refusal) in
                do { return try JSONSchema(value) } catch { throw ConfigTreeReader.Refusal() }
            },
            constraints: try r.optional("constraints").map(OutputConstraints.init(tree:)),
            options: try r.optional("options").map(FeatureGenerationOptions.init(tree:)),
            priority: try r.strings("priority"),
            deadlineMs: try r.optionalInt("deadlineMs"),
            privacy: privacy,
            monthlyBudgetUSD: try r.optionalDouble("monthlyBudgetUSD"),
            routing: try r.optionalDecoded(RoutingConfig.self, "routing"),
            events: try r.optional("events").map(FeatureEventsConfig.init(tree:))
        )
        try r.requireAllRead()
    }
}

extension PromptVariant {
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        var r = try ConfigTreeReader(tree)
        self.init(
            instructions: try r.optionalString("instructions"), template: try r.optionalString("template"),
            templateFile: try r.optionalString("templateFile"))
        try r.requireAllRead()
    }
}

extension FeatureGenerationOptions {
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        var r = try ConfigTreeReader(tree)
        self.init(
            temperature: try r.optionalDouble("temperature"), maxOutputTokens: try r.optionalInt("maxOutputTokens"),
            topP: try r.optionalDouble("topP"), seed: try r.optionalInt("seed"))
        try r.requireAllRead()
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
    /// Unknown keys are refused: the `Decodable` path reports them as errors.
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        var r = try ConfigTreeReader(tree)
        for key in r.members.keys where !Self.supportedKeys.contains(key) { throw ConfigTreeReader.Refusal() }
        self.init(
            minSentences: try r.optionalInt("minSentences"), maxSentences: try r.optionalInt("maxSentences"),
            minWords: try r.optionalInt("minWords"), maxWords: try r.optionalInt("maxWords"),
            maxCharacters: try r.optionalInt("maxCharacters"), singleParagraph: try r.optionalBool("singleParagraph"),
            mustContain: try Self.patterns(r.optional("mustContain")),
            mustNotContain: try Self.patterns(r.optional("mustNotContain")))
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
