public import HybridConfig
public import Foundation
import HybridCore

/// Converts between a config document and a Firebase Remote Config template (REST `RemoteConfig` JSON), so teams
/// already on Firebase can edit HybridAI configs in its console.
///
/// Mapping (one parameter per section and per feature, so each prompt is a separate, reviewable console entry):
/// - `hybrid_version` (`valueType: NUMBER`): the document `version` (Firebase's own `version.versionNumber` is
///   assigned by Firebase and is only a fallback on import);
/// - `hybrid_models`, `hybrid_rollouts`, `hybrid_provenance`, `hybrid_routing` (`valueType: JSON`): those sections;
/// - `hybrid_feature_<name>` (`valueType: JSON`): one feature, without its `overrides`;
/// - `conditions` (the template's): the document's conditions in the same order, each as a Firebase expression
///   (`FirebaseConditionExpression` has the label → element table);
/// - `hybrid_feature_<name>.conditionalValues.<condition>`: the whole feature with that override applied, so
///   Firebase's own first-match rule picks the same value the router would;
/// - `version.description`: the document `description`.
/// JSON values travel as strings in `defaultValue.value`, as the REST format requires. A document without
/// conditions exports exactly as it did before conditions existed.
///
/// Export throws, naming the JSON path (`conditions[2].labels.locale.prefix`), when a condition has a test Firebase
/// cannot state: dropping the test would widen the condition and dropping the condition would change who gets
/// which value, both silently, in production.
///
/// Import reads parameters in `parameterGroups` too and leaves other parameters alone (with a warning). Conditions
/// are read back into `ConfigCondition`s; one that uses an element HybridAI cannot test (audiences, user properties,
/// time, app id, `||`, …) is left out, together with its conditional values, and named in a warning. A feature's
/// conditional value becomes the override under that condition: the fields where it differs from the default value;
/// differences an override cannot state (another `inputs`, a removed variant) are warnings on
/// `parameters.hybrid_feature_<name>.conditionalValues.<condition>`. Conditional values of other parameters, and
/// ones that are not plain values (in-app default, rollout, personalization, experiment), are warnings too. Condition
/// names with characters HybridAI does not allow (spaces) are renamed, with a warning. `tagColor` and `$schema` are
/// not carried. References: firebase.google.com/docs/remote-config/templates,
/// firebase.google.com/docs/remote-config/condition-reference and
/// firebase.google.com/docs/reference/remote-config/rest/v1/Version.
public enum FirebaseRemoteConfig {
    static let prefix = "hybrid_"
    static let featurePrefix = "hybrid_feature_"

    /// What an import produced.
    public struct ImportResult: Sendable {
        /// The decoded document (not yet semantically validated: run `ConfigValidator.validate`).
        public var document: HybridConfigDocument
        /// The document as canonical JSON, ready for `ConfigValidator.load` or a file.
        public var json: Data
        /// What was not carried over, each at its template path: parameters ignored, conditions renamed or left out
        /// (with why), conditional values that could not become overrides.
        public var warnings: [ConfigIssue]
    }

    /// The Firebase template for `document`, as pretty JSON with sorted keys; throws on a condition Firebase cannot
    /// state, naming its path.
    public static func exportTemplate(_ document: HybridConfigDocument) throws(ConfigError) -> Data {
        var parameters: [String: JSONValue] = [:]
        func text(_ value: some Encodable, path: String) throws(ConfigError) -> String {
            if let number = value as? Int { return String(number) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                return String(decoding: try encoder.encode(value), as: UTF8.self)
            } catch {
                throw .firebase(path: path, reason: "cannot encode: \(error)")
            }
        }
        func add(
            _ name: String, _ value: some Encodable, type: String, description: String, conditional: [String: JSONValue] = [:]
        ) throws(ConfigError) {
            var parameter: [String: JSONValue] = [
                "defaultValue": ["value": .string(try text(value, path: "parameters.\(name)"))],
                "valueType": .string(type),
                "description": .string(description),
            ]
            if !conditional.isEmpty { parameter["conditionalValues"] = .object(conditional) }
            parameters[name] = .object(parameter)
        }
        var conditions: [JSONValue] = []
        for (i, condition) in document.conditions.enumerated() {
            let expression = try FirebaseConditionExpression.expression(for: condition, at: ConfigPath.root.key("conditions").index(i))
            conditions.append(["name": .string(condition.name), "expression": .string(expression)])
        }
        try add("hybrid_version", document.version, type: "NUMBER", description: "HybridAI config version; must increase with every publish")
        try add("hybrid_models", document.models, type: "JSON", description: "HybridAI models: id → provider, endpoint, prices")
        for (name, feature) in document.features {
            var plain = feature
            var conditional: [String: JSONValue] = [:]
            // Overrides travel as conditional values (Firebase evaluates them); an empty `overrides` stays as written.
            if let overrides = feature.overrides, !overrides.isEmpty {
                plain.overrides = nil
                for (condition, override) in overrides {
                    let path = ConfigPath.root.key("features").key(name).key("overrides").key(condition).description
                    guard document.conditions.contains(where: { $0.name == condition }) else {
                        throw .firebase(path: path, reason: "condition \"\(condition)\" is not defined in conditions")
                    }
                    conditional[condition] = ["value": .string(try text(override.applied(to: feature), path: path))]
                }
            }
            try add(
                featurePrefix + name, plain, type: "JSON", description: "HybridAI feature \(name): prompts, schema, priority order",
                conditional: conditional)
        }
        if !document.rollouts.isEmpty {
            try add("hybrid_rollouts", document.rollouts, type: "JSON", description: "HybridAI rollouts: feature → percentage split")
        }
        if let routing = document.routing {
            try add("hybrid_routing", routing, type: "JSON", description: "HybridAI routing defaults for every feature")
        }
        if let provenance = document.provenance {
            try add("hybrid_provenance", provenance, type: "JSON", description: "Who or which eval run produced this config")
        }
        var template: [String: JSONValue] = ["parameters": .object(parameters)]
        if !conditions.isEmpty { template["conditions"] = .array(conditions) }
        if let description = document.description {
            template["version"] = ["description": .string(description)]
        }
        return try encoded(.object(template))
    }

    static func encoded(_ value: JSONValue) throws(ConfigError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw .firebase(path: "$", reason: "cannot encode: \(error)")
        }
    }

    /// Reads a Firebase template (as returned by `GET …/remoteConfig` or the console's download).
    public static func importTemplate(_ data: Data) throws(ConfigError) -> ImportResult {
        let template: JSONValue
        do {
            template = try JSONValue(parsing: data)
        } catch {
            throw .notJSON(detail: "Firebase template: \(error)")
        }
        guard case .object = template else { throw .firebase(path: "$", reason: "expected an object") }
        var warnings: [ConfigIssue] = []
        var found: [(name: String, path: String, parameter: JSONValue)] = []
        if let parameters = template["parameters"]?.objectValue {
            for (name, p) in parameters.sorted(by: { $0.key < $1.key }) { found.append((name, "parameters.\(name)", p)) }
        }
        if let groups = template["parameterGroups"]?.objectValue {
            for (group, value) in groups.sorted(by: { $0.key < $1.key }) {
                for (name, p) in (value["parameters"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                    found.append((name, "parameterGroups.\(group).parameters.\(name)", p))
                }
            }
        }
        let conditions = try importConditions(template)
        var document: [String: JSONValue] = [:]
        var features: [String: JSONValue] = [:]
        var conditional: [(feature: String, path: String, values: [String: JSONValue])] = []
        for (name, path, parameter) in found {
            guard name.hasPrefix(prefix) else {
                warnings.append(ConfigIssue(path: path, message: "not a HybridAI parameter (ignored)", severity: .warning))
                continue
            }
            let values = parameter["conditionalValues"]?.objectValue ?? [:]
            if !values.isEmpty, !name.hasPrefix(featurePrefix) {
                let message = "only features (hybrid_feature_…) can differ by condition; the values for \(values.keys.sorted().joined(separator: ", ")) are ignored"
                warnings.append(ConfigIssue(path: path + ".conditionalValues", message: message, severity: .warning))
            }
            guard let text = parameter["defaultValue"]?["value"]?.stringValue else {
                let reason = parameter["defaultValue"]?["useInAppDefault"] != nil
                    ? "uses the in-app default; give it a value" : "missing defaultValue.value"
                throw .firebase(path: path, reason: reason)
            }
            if name == "hybrid_version" {
                guard let version = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    throw .firebase(path: path + ".defaultValue.value", reason: "expected an integer, found \"\(text)\"")
                }
                document["version"] = .int(version)
                continue
            }
            if let type = parameter["valueType"]?.stringValue, type != "JSON" {
                throw .firebase(path: path + ".valueType", reason: "expected JSON, found \(type)")
            }
            let value = try json(text, path: path + ".defaultValue.value")
            switch name {
            case "hybrid_models": document["models"] = value
            case "hybrid_rollouts": document["rollouts"] = value
            case "hybrid_provenance": document["provenance"] = value
            case "hybrid_routing": document["routing"] = value
            case let n where n.hasPrefix(featurePrefix):
                let feature = String(n.dropFirst(featurePrefix.count))
                features[feature] = value
                if !values.isEmpty { conditional.append((feature, path, values)) }
            default:
                warnings.append(ConfigIssue(path: path, message: "unknown HybridAI parameter (ignored)", severity: .warning))
            }
        }
        var leftOutUsers: [String: [String]] = [:]
        for (feature, path, values) in conditional {
            let result = try overrides(of: feature, values, default: features[feature] ?? [:], conditions: conditions, path: path)
            features[feature] = result.feature
            warnings += result.warnings
            for name in result.leftOut { leftOutUsers[name, default: []].append(featurePrefix + feature) }
        }
        warnings = conditions.warnings(users: leftOutUsers) + warnings
        if document["version"] == nil {
            guard let number = template["version"]?["versionNumber"]?.stringValue.flatMap({ Int($0) }) else {
                throw .firebase(path: "parameters.hybrid_version", reason: "missing, and the template has no version.versionNumber")
            }
            document["version"] = .int(number)
        }
        guard document["models"] != nil else { throw .firebase(path: "parameters.hybrid_models", reason: "missing") }
        guard !features.isEmpty else { throw .firebase(path: "parameters", reason: "no hybrid_feature_<name> parameter") }
        document["features"] = .object(features)
        if !conditions.conditions.isEmpty {
            var list: [JSONValue] = []
            for condition in conditions.conditions {
                var entry = try tree(condition, path: "conditions")
                // A percentile-only condition is written without `"labels": {}`, as a person would write it.
                if entry["labels"]?.objectValue?.isEmpty == true { entry.removeKey("labels") }
                list.append(entry)
            }
            document["conditions"] = .array(list)
        }
        if let description = template["version"]?["description"]?.stringValue { document["description"] = .string(description) }
        let json = try encoded(.object(document))
        return ImportResult(document: try ConfigValidator.decode(json), json: json, warnings: warnings)
    }

    /// `text` parsed as JSON, or an error naming `path`.
    static func json(_ text: String, path: String) throws(ConfigError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw .firebase(path: path, reason: "not valid JSON: \(error)")
        }
    }

    /// `value` as a JSON tree (to place a typed value into the document being assembled).
    static func tree(_ value: some Encodable, path: String) throws(ConfigError) -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            throw .firebase(path: path, reason: "cannot encode: \(error)")
        }
    }
}

extension JSONValue {
    fileprivate mutating func removeKey(_ key: String) {
        guard case .object(var members) = self else { return }
        members[key] = nil
        self = .object(members)
    }
}
