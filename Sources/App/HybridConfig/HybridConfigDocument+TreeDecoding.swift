import HybridCore

/// The one reader of a config document: straight from its parsed tree through ``ConfigTreeReader``.
///
/// The bulk of a large config is features, so features and everything inside them are spelled out here; the few
/// models, rollouts, conditions and routing blocks go through their `Decodable` conformances over the tree. A field
/// added to a document or a feature is one `case` in its reader: those two types are `Encodable` only, so no second
/// reader can disagree with this one (`ConfigTreeDecodingTests` reads back what `encodedJSON()` wrote).
extension HybridConfigDocument {
    /// Reads the document; every part that fails (version, each model, feature and rollout…) adds its issues.
    init(tree: JSONValue) throws(ConfigTreeReader.Refusal) {
        let r = try ConfigTreeReader(tree, at: .root)
        var issues: [ConfigIssue] = []
        func part<T>(_ read: () throws(ConfigTreeReader.Refusal) -> T) -> T? {
            do { return try read() } catch {
                issues += error.issues
                return nil
            }
        }
        typealias Reader = ConfigTreeReader
        let version = part { () throws(Reader.Refusal) in try Reader.int(try r.required("version"), at: .root.key("version")) }
        let schema = part { () throws(Reader.Refusal) in try r.optionalString("$schema") }
        let description = part { () throws(Reader.Refusal) in try r.optionalString("description") }
        let provenance = part { () throws(Reader.Refusal) in try r.optionalDecoded(Provenance.self, "provenance") }
        let routing = part { () throws(Reader.Refusal) in try r.optionalDecoded(RoutingConfig.self, "routing") }
        let models = part { () throws(Reader.Refusal) in
            try Reader.map(try r.required("models"), at: .root.key("models")) { (value, path) throws(Reader.Refusal) in
                try Reader.decoded(ModelConfig.self, value, at: path)
            }
        }
        let features = part { () throws(Reader.Refusal) in
            try Reader.map(try r.required("features"), at: .root.key("features"), FeatureConfig.init(tree:at:))
        }
        let rollouts = part { () throws(Reader.Refusal) in
            try r.optional("rollouts").map { (value) throws(Reader.Refusal) in
                try Reader.map(value, at: .root.key("rollouts")) { (value, path) throws(Reader.Refusal) in
                    try Reader.decoded(RolloutConfig.self, value, at: path)
                }
            }
        }
        let conditions = part { () throws(Reader.Refusal) in try r.optionalDecoded([ConfigCondition].self, "conditions") }
        let labels = part { () throws(Reader.Refusal) in try r.optionalDecoded([String].self, "labels") }
        let schemaVersion = part { () throws(Reader.Refusal) in try r.optionalDecoded(Int.self, "schemaVersion") }
        guard issues.isEmpty, let version, let schema, let description, let provenance, let routing, let models,
            let features, let rollouts, let conditions, let labels, let schemaVersion
        else { throw Reader.Refusal(issues) }
        self.init(
            schema: schema, version: version, description: description, provenance: provenance, models: models,
            features: features, rollouts: rollouts ?? [:], routing: routing, conditions: conditions ?? [])
        self.labels = labels
        self.schemaVersion = schemaVersion
    }
}

extension FeatureConfig {
    /// One pass over the feature's members, each matched by name: a large config has hundreds of features, and a
    /// lookup per field (present or not) hashed every field name of every feature.
    init(tree: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.mismatch("an object", tree, path) }
        var f = Fields(path: path)
        for (key, value) in members {
            try f.read(key, value)
        }
        guard let variants = f.variants else { throw ConfigTreeReader.missing("variants", among: members, at: path) }
        guard let defaultVariant = f.defaultVariant else {
            throw ConfigTreeReader.missing("defaultVariant", among: members, at: path)
        }
        guard let priority = f.priority else { throw ConfigTreeReader.missing("priority", among: members, at: path) }
        guard let privacy = f.privacy else { throw ConfigTreeReader.missing("privacy", among: members, at: path) }
        self.init(
            description: f.description, inputs: f.inputs ?? ["input"], instructions: f.instructions, variants: variants,
            defaultVariant: defaultVariant, outputSchema: f.outputSchema, constraints: f.constraints, options: f.options,
            priority: priority, deadlineMs: f.deadlineMs, privacy: privacy, monthlyBudgetUSD: f.monthlyBudgetUSD,
            routing: f.routing, events: f.events)
        overrides = f.overrides
        inputRules = f.inputRules
    }

    /// The fields read so far; a `null` optional stays nil (what `decodeIfPresent` does), a `null` required field
    /// is refused by its reader. Unknown keys are skipped (reported as warnings by the validator).
    private struct Fields {
        let path: ConfigPath
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
        var inputRules: [InputRule]?

        typealias Reader = ConfigTreeReader

        init(path: ConfigPath) { self.path = path }

        mutating func read(_ key: String, _ value: JSONValue) throws(Reader.Refusal) {
            switch key {
            case "variants": variants = try Reader.map(value, at: path.key(key), PromptVariant.init(tree:at:))
            case "defaultVariant": defaultVariant = try Reader.string(value, at: path.key(key))
            case "priority": priority = try Reader.strings(value, at: path.key(key))
            case "privacy":
                let name = try Reader.string(value, at: path.key(key))
                guard let privacy = PrivacyClass(rawValue: name) else {
                    throw Reader.Refusal(path.key(key), "unknown privacy class \"\(name)\"")
                }
                self.privacy = privacy
            default: try readOptional(key, value)
            }
        }

        private mutating func readOptional(_ key: String, _ value: JSONValue) throws(Reader.Refusal) {
            if case .null = value { return }
            switch key {
            case "description": description = try Reader.string(value, at: path.key(key))
            case "inputs": inputs = try Reader.strings(value, at: path.key(key))
            case "instructions": instructions = try Reader.string(value, at: path.key(key))
            case "outputSchema": outputSchema = try Self.schema(value, at: path.key(key))
            case "constraints": constraints = try OutputConstraints(tree: value, at: path.key(key))
            case "options": options = try FeatureGenerationOptions(tree: value, at: path.key(key))
            case "deadlineMs": deadlineMs = try Reader.int(value, at: path.key(key))
            case "monthlyBudgetUSD": monthlyBudgetUSD = try Reader.double(value, at: path.key(key))
            case "routing": routing = try Reader.decoded(RoutingConfig.self, value, at: path.key(key))
            case "events": events = try FeatureEventsConfig(tree: value, at: path.key(key))
            case "overrides": overrides = try Reader.decoded([String: FeatureOverride].self, value, at: path.key(key))
            case "inputRules": inputRules = try Self.inputRules(value, at: path.key(key))
            default: break
            }
        }

        /// Each rule read on its own, so every bad rule is named, not only the first.
        private static func inputRules(_ value: JSONValue, at path: ConfigPath) throws(Reader.Refusal) -> [InputRule] {
            guard case .array(let elements) = value else { throw Reader.mismatch("an array", value, path) }
            var rules: [InputRule] = []
            var issues: [ConfigIssue] = []
            for (i, element) in elements.enumerated() {
                do { rules.append(try Reader.decoded(InputRule.self, element, at: path.index(i))) } catch { issues += error.issues }
            }
            if !issues.isEmpty { throw Reader.Refusal(issues) }
            return rules
        }

        /// A schema's own error names the place inside the schema; it is folded into the path as for any issue.
        private static func schema(_ value: JSONValue, at path: ConfigPath) throws(Reader.Refusal) -> JSONSchema {
            do {
                return try JSONSchema(value)
            } catch {
                let context = DecodingError.Context(codingPath: [], debugDescription: "invalid JSON Schema: \(error)")
                throw Reader.Refusal([ConfigValidator.issue(from: DecodingError.dataCorrupted(context), under: path)])
            }
        }
    }
}

extension PromptVariant {
    /// One pass over the members, as for features (every feature has variants); `null` leaves a field unset.
    init(tree: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.mismatch("an object", tree, path) }
        var instructions: String?
        var template: String?
        var templateFile: String?
        for (key, value) in members where value != .null {
            switch key {
            case "template": template = try ConfigTreeReader.string(value, at: path.key(key))
            case "instructions": instructions = try ConfigTreeReader.string(value, at: path.key(key))
            case "templateFile": templateFile = try ConfigTreeReader.string(value, at: path.key(key))
            default: break
            }
        }
        self.init(instructions: instructions, template: template, templateFile: templateFile)
    }
}

extension FeatureGenerationOptions {
    /// One pass over the members, as for variants; `null` leaves a field unset.
    init(tree: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.mismatch("an object", tree, path) }
        self.init()
        for (key, value) in members where value != .null {
            switch key {
            case "temperature": temperature = try ConfigTreeReader.double(value, at: path.key(key))
            case "maxOutputTokens": maxOutputTokens = try ConfigTreeReader.int(value, at: path.key(key))
            case "topP": topP = try ConfigTreeReader.double(value, at: path.key(key))
            case "seed": seed = try ConfigTreeReader.int(value, at: path.key(key))
            default: break
            }
        }
    }
}

extension FeatureEventsConfig {
    init(tree: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) {
        let r = try ConfigTreeReader(tree, at: path)
        self.init(includeContent: try r.optionalBool("includeContent") ?? false)
    }
}

extension OutputConstraints {
    /// One pass over the members, as for features: every feature of a large config has constraints. An unknown
    /// key is an error here (a constraint the app cannot check must not pass silently).
    init(tree: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) {
        guard case .object(let members) = tree else { throw ConfigTreeReader.mismatch("an object", tree, path) }
        if members.keys.contains(where: { !Self.supportedKeys.contains($0) }),
            let unknown = members.keys.sorted().first(where: { !Self.supportedKeys.contains($0) })
        {
            throw ConfigTreeReader.Refusal(
                path.key(unknown),
                "unknown output constraint '\(unknown)' (supported: " + Self.supportedKeys.joined(separator: ", ") + ")")
        }
        self.init()
        for (key, value) in members where value != .null {
            try read(key, value, at: path.key(key))
        }
    }

    private mutating func read(_ key: String, _ value: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) {
        switch key {
        case "minSentences": minSentences = try ConfigTreeReader.int(value, at: path)
        case "maxSentences": maxSentences = try ConfigTreeReader.int(value, at: path)
        case "minWords": minWords = try ConfigTreeReader.int(value, at: path)
        case "maxWords": maxWords = try ConfigTreeReader.int(value, at: path)
        case "maxCharacters": maxCharacters = try ConfigTreeReader.int(value, at: path)
        case "singleParagraph": singleParagraph = try ConfigTreeReader.bool(value, at: path)
        case "mustContain": mustContain = try Self.patterns(value, at: path)
        case "mustNotContain": mustNotContain = try Self.patterns(value, at: path)
        default: break
        }
    }

    /// A string is a phrase, `{"regex": "…"}` (nothing else) a regex.
    private static func patterns(_ value: JSONValue, at path: ConfigPath) throws(ConfigTreeReader.Refusal) -> [TextPattern] {
        guard case .array(let elements) = value else { throw ConfigTreeReader.mismatch("an array", value, path) }
        var result: [TextPattern] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if case .string(let phrase) = element {
                result.append(.phrase(phrase))
                continue
            }
            let r = try ConfigTreeReader(element, at: path.index(index))
            if r.members.count != 1 || r.members["regex"] == nil,
                let extra = r.members.keys.sorted().first(where: { $0 != "regex" })
            {
                throw ConfigTreeReader.Refusal(
                    path.index(index).key(extra), "unknown key '\(extra)'; a pattern is a string or {\"regex\": \"…\"}")
            }
            result.append(.regex(try r.string("regex")))
        }
        return result
    }
}
