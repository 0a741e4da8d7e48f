public import Foundation
import HybridCore

/// Decodes and checks config documents, collecting every problem with its JSON path.
///
/// A payload is rejected when it is not JSON, has wrong types or missing keys, names an unknown provider kind,
/// lists a model in a priority order that `models` does not define, or has a template that references a variable
/// the feature does not declare. Nothing here traps or throws anything but `ConfigError`.
public enum ConfigValidator {
    /// Decodes `data`, validates it and inlines template files.
    ///
    /// - Parameter checkUnknownKeys: report keys the document model does not know as warnings (costs a second
    ///   parse; the start-up path from an already validated cache turns it off).
    public static func load(
        _ data: Data,
        promptFiles: PromptFileResolver = PromptFileResolver(),
        checkUnknownKeys: Bool = true
    ) throws(ConfigError) -> ValidatedConfig {
        // One parse serves decoding, the unknown-key check and a first look for secrets: the parser shows every
        // string to the secret screen while it holds its bytes, and only a document with a suspect string (rare)
        // is walked with paths to word the findings.
        var mayHoldSecrets = false
        let tree = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)) { bytes, isKey in
            if !mayHoldSecrets && SecretScanner.mayHaveFindings(bytes, isKey: isKey) { mayHoldSecrets = true }
        }
        let document = try decode(data, tree: tree)
        var warnings: [ConfigIssue] = []
        if checkUnknownKeys, let tree {
            warnings += unknownKeys(in: tree)
        }
        return try validate(
            document, tree: tree, secretsScreenedClean: tree != nil && !mayHoldSecrets, promptFiles: promptFiles,
            extraWarnings: warnings)
    }

    /// Decodes `data` without the semantic checks (for diffs and imports); errors carry JSON paths.
    package static func decode(_ data: Data) throws(ConfigError) -> HybridConfigDocument {
        try decode(data, tree: try? JSONValue(parsing: String(decoding: data, as: UTF8.self)))
    }

    /// Reads the document from `tree`, the one parse of `data`, with its one reader
    /// (`HybridConfigDocument+TreeDecoding.swift`), which words every problem with its JSON path.
    private static func decode(_ data: Data, tree: JSONValue?) throws(ConfigError) -> HybridConfigDocument {
        guard let tree else { throw .notJSON(detail: notJSONDetail(data)) }
        do {
            return try HybridConfigDocument(tree: tree)
        } catch {
            throw .invalid(error.issues)
        }
    }

    /// Validates an already decoded document and inlines its template files.
    public static func validate(
        _ document: HybridConfigDocument,
        promptFiles: PromptFileResolver = PromptFileResolver(),
        extraWarnings: [ConfigIssue] = []
    ) throws(ConfigError) -> ValidatedConfig {
        try validate(document, tree: nil, secretsScreenedClean: false, promptFiles: promptFiles, extraWarnings: extraWarnings)
    }

    /// `tree` is the parsed payload when there is one: the secret scan then also covers keys the document model
    /// does not know; without it the scan runs over the document's own encoding. `secretsScreenedClean` says the
    /// parse of `tree` already showed every string to ``SecretScanner/mayHaveFindings(_:isKey:)`` and none could
    /// yield a finding, so the walk is skipped (it would find nothing).
    ///
    /// Template files are inlined into `document` only after the checker is gone: `load` hands the document over,
    /// so it is the only reference and inlining modifies it in place instead of copying every feature.
    private static func validate(
        _ document: consuming HybridConfigDocument,
        tree: JSONValue?,
        secretsScreenedClean: Bool,
        promptFiles: PromptFileResolver,
        extraWarnings: [ConfigIssue]
    ) throws(ConfigError) -> ValidatedConfig {
        let checked = check(
            document, tree: tree, secretsScreenedClean: secretsScreenedClean, promptFiles: promptFiles,
            extraWarnings: extraWarnings)
        let errors = checked.issues.filter { $0.severity == .error }
        guard errors.isEmpty else { throw .invalid(errors) }
        for inlined in checked.inlinedTemplates {
            document.features[inlined.feature]?.variants[inlined.variant] = inlined.prompt
        }
        return ValidatedConfig(
            document: document,
            warnings: checked.issues.filter { $0.severity == .warning },
            templateFiles: checked.templateFiles
        )
    }

    /// What checking found; it holds no reference to the document, so the caller's copy stays unique.
    private struct CheckOutcome {
        var issues: [ConfigIssue]
        var inlinedTemplates: [Checker.InlinedTemplate]
        var templateFiles: [String: String]
    }

    private static func check(
        _ document: HybridConfigDocument, tree: JSONValue?, secretsScreenedClean: Bool, promptFiles: PromptFileResolver,
        extraWarnings: [ConfigIssue]
    ) -> CheckOutcome {
        var checker = Checker(document: document, promptFiles: promptFiles)
        if !secretsScreenedClean {
            checker.scanSecrets(in: tree ?? (try? JSONValue(parsing: String(decoding: document.encodedJSON(pretty: false), as: UTF8.self))))
        }
        checker.issues += extraWarnings
        checker.run()
        return CheckOutcome(issues: checker.issues, inlinedTemplates: checker.inlinedTemplates, templateFiles: checker.templateFiles)
    }

    /// All issues of `data` (errors and warnings), for `hybrid config validate`; empty when it is fine.
    package static func issues(in data: Data, promptFiles: PromptFileResolver = PromptFileResolver()) -> [ConfigIssue] {
        do {
            return try load(data, promptFiles: promptFiles).warnings
        } catch let error where error.kind == .invalid {
            // Warnings are lost when errors block the document; report them too when the JSON decodes.
            let warnings = (try? JSONValue(parsing: String(decoding: data, as: UTF8.self))).map(unknownKeys(in:)) ?? []
            return error.issues + warnings
        } catch {
            return [ConfigIssue(path: "$", message: error.description)]
        }
    }

    // MARK: - Decoding failures

    /// Where the text stops being JSON, with line and column (the package's parser says so).
    private static func notJSONDetail(_ data: Data) -> String {
        if data.isEmpty { return "empty body" }
        do {
            _ = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
            return "unreadable JSON"
        } catch {
            return error.description
        }
    }

    /// A decoding error as an issue under `base`; anything but a `DecodingError` keeps its own words.
    static func issue(from error: any Error, under base: ConfigPath) -> ConfigIssue {
        guard let error = error as? DecodingError else { return ConfigIssue(path: base.description, message: "\(error)") }
        return issue(from: error, under: base)
    }

    static func issue(from error: DecodingError, under base: ConfigPath) -> ConfigIssue {
        switch error {
        case .typeMismatch(let type, let context):
            return ConfigIssue(
                path: base.appending(ConfigPath(codingPath: context.codingPath)).description,
                message: "expected \(jsonTypeName(type))\(foundSuffix(context))"
            )
        case .valueNotFound(let type, let context):
            return ConfigIssue(
                path: base.appending(ConfigPath(codingPath: context.codingPath)).description,
                message: "expected \(jsonTypeName(type)), found null"
            )
        case .keyNotFound(let key, let context):
            return ConfigIssue(
                path: base.appending(ConfigPath(codingPath: context.codingPath)).key(key.stringValue).description,
                message: "missing required key"
            )
        case .dataCorrupted(let context):
            let path = base.appending(ConfigPath(codingPath: context.codingPath)).description
            // JSONSchema reports "invalid JSON Schema: <path in schema>: <reason>"; fold the inner path into ours.
            let prefix = "invalid JSON Schema: "
            if context.debugDescription.hasPrefix(prefix) {
                let rest = context.debugDescription.dropFirst(prefix.count)
                if let colon = rest.range(of: ": ") {
                    let inner = String(rest[..<colon.lowerBound])
                    let reason = String(rest[colon.upperBound...])
                    let joined = inner == "$" ? path : path + (inner.hasPrefix("[") ? inner : "." + inner)
                    return ConfigIssue(path: joined, message: "schema: \(reason)")
                }
            }
            return ConfigIssue(path: path, message: context.debugDescription)
        @unknown default:
            return ConfigIssue(path: base.description, message: String(describing: error))
        }
    }

    private static func foundSuffix(_ context: DecodingError.Context) -> String {
        // The tree decoder phrases it "expected X, found Y"; keep only the found part.
        let text = context.debugDescription
        guard let range = text.range(of: "found ", options: .backwards) else { return "" }
        return ", found \(text[range.upperBound...])"
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array"
                : String(describing: type).hasPrefix("Dictionary") ? "an object" : String(describing: type)
        }
    }

    // MARK: - Unknown keys

    /// Keys the document model does not know, as warnings (a newer config may add fields an older app ignores).
    /// The document format this library reads: a document with a higher `schemaVersion` may carry keys it does not
    /// know, and an app then ignores them rather than refusing the document.
    static let schemaVersion = 1

    /// The known key a misspelt `key` most likely meant: the closest by edit distance (case ignored), when it is
    /// at most 2 edits and under half the key's length away; nil otherwise.
    static func nearest(to key: String, in known: [String]) -> String? {
        let typed = Array(key.lowercased())
        let scored = known.map { ($0, editDistance(typed, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 * 2 < typed.count else { return nil }
        return best.0
    }

    /// A near miss by spelling (``nearest(to:in:)``), or the one name a shortened key starts (`inputChars` →
    /// `inputCharacters`, `latency` → `latencyMeanMs`): what a "did you mean" names, in the config and on the harness's
    /// command line alike.
    package static func suggestion(for key: String, in known: [String]) -> String? {
        if let near = nearest(to: key, in: known) { return near }
        let stem = key.lowercased().dropLast()
        let started = known.filter { stem.count >= 4 && $0.lowercased().hasPrefix(stem) }
        return started.count == 1 ? started[0] : nil
    }

    /// Levenshtein distance (insertions, deletions, substitutions) between two short strings.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func unknownKeys(in tree: JSONValue) -> [ConfigIssue] {
        var issues: [ConfigIssue] = []
        func check(_ value: JSONValue?, _ known: [String], _ path: ConfigPath) {
            guard case .object(let members)? = value else { return }
            for key in members.keys.sorted() where !known.contains(key) {
                let hint = nearest(to: key, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
                var issue = ConfigIssue(path: path.key(key).description, message: "unknown key (ignored)\(hint)", severity: .warning)
                issue.blocksPublishing = true
                issue.isUnknownKey = true
                issues.append(issue)
            }
        }
        func each(_ value: JSONValue?, _ body: (String, JSONValue) -> Void) {
            guard case .object(let members)? = value else { return }
            for (k, v) in members.sorted(by: { $0.key < $1.key }) { body(k, v) }
        }
        let root = ConfigPath.root
        check(tree, HybridConfigDocument.CodingKeys.allCases.map(\.rawValue), root)
        check(tree["provenance"], ["producedBy", "evalRun", "createdAt"], root.key("provenance"))
        let routingKeys = RoutingConfig.CodingKeys.allCases.map(\.rawValue)
        let hedgeKeys = HedgeConfig.CodingKeys.allCases.map(\.rawValue)
        check(tree["routing"], routingKeys, root.key("routing"))
        check(tree["routing"]?["hedge"], hedgeKeys, root.key("routing").key("hedge"))
        each(tree["models"]) { id, model in
            let p = root.key("models").key(id)
            check(model, ["kind", "baseURL", "model", "tier", "apiKeyEnv", "pricing", "contextWindow", "maxOutputTokens", "maxTokensField", "capabilities", "displayName", "maxConcurrency"], p)
            check(model["pricing"], ["inputPerMillion", "outputPerMillion", "cachedInputPerMillion"], p.key("pricing"))
            check(model["capabilities"], ["structuredOutput", "streaming"], p.key("capabilities"))
        }
        each(tree["features"]) { name, feature in
            let p = root.key("features").key(name)
            check(feature, FeatureConfig.CodingKeys.allCases.map(\.rawValue), p)
            check(feature["options"], ["temperature", "maxOutputTokens", "topP", "seed"], p.key("options"))
            check(feature["routing"], routingKeys, p.key("routing"))
            check(feature["routing"]?["hedge"], hedgeKeys, p.key("routing").key("hedge"))
            check(feature["events"], FeatureEventsConfig.CodingKeys.allCases.map(\.rawValue), p.key("events"))
            each(feature["variants"]) { variant, value in
                check(value, ["instructions", "template", "templateFile"], p.key("variants").key(variant))
            }
            if case .array(let rules)? = feature["inputRules"] {
                for (i, rule) in rules.enumerated() {
                    check(rule, InputRule.CodingKeys.allCases.map(\.rawValue), p.key("inputRules").index(i))
                }
            }
            each(feature["overrides"]) { condition, override in
                let o = p.key("overrides").key(condition)
                check(override, FeatureOverride.CodingKeys.allCases.map(\.rawValue), o)
                check(override["routing"], routingKeys, o.key("routing"))
                check(override["routing"]?["hedge"], hedgeKeys, o.key("routing").key("hedge"))
                check(override["options"], ["temperature", "maxOutputTokens", "topP", "seed"], o.key("options"))
            }
        }
        if case .array(let conditions)? = tree["conditions"] {
            for (i, condition) in conditions.enumerated() {
                let c = root.key("conditions").index(i)
                check(condition, ConfigCondition.CodingKeys.allCases.map(\.rawValue), c)
                check(condition["percentile"], PercentileRange.CodingKeys.allCases.map(\.rawValue), c.key("percentile"))
                each(condition["labels"]) { label, test in
                    check(test, ["equals", "oneOf", "prefix", "atLeast", "below"], c.key("labels").key(label))
                }
            }
        }
        each(tree["rollouts"]) { name, rollout in
            let p = root.key("rollouts").key(name)
            check(rollout, ["seed", "arms", "plan", "design"], p)
            check(rollout["design"], ["kind", "horizon", "looks", "lookDays", "lookInstalls", "spending", "primaryMetric"], p.key("design"))
            check(rollout["design"]?["horizon"], ["days", "installs"], p.key("design").key("horizon"))
            check(rollout["plan"], ["arm", "stages", "minStageHours", "minInstallsPerArm", "guardrails"], p.key("plan"))
            if case .array(let guardrails)? = rollout["plan"]?["guardrails"] {
                for (i, guardrail) in guardrails.enumerated() {
                    check(guardrail, ["metric", "tolerance"], p.key("plan").key("guardrails").index(i))
                }
            }
            if case .array(let arms)? = rollout["arms"] {
                for (i, arm) in arms.enumerated() {
                    check(arm, ["name", "percentage", "variant", "priority", "inputRules"], p.key("arms").index(i))
                }
            }
        }
        return issues
    }
}
