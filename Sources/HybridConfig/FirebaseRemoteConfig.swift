public import Foundation
import HybridCore

/// Converts between a config document and a Firebase Remote Config template (REST `RemoteConfig` JSON), so teams
/// already on Firebase can edit HybridAI configs in its console.
///
/// Mapping (one parameter per section and per feature, so each prompt is a separate, reviewable console entry):
/// - `hybrid_version` (`valueType: NUMBER`): the document `version` (Firebase's own `version.versionNumber` is
///   assigned by Firebase and is only a fallback on import);
/// - `hybrid_models`, `hybrid_rollouts`, `hybrid_provenance`, `hybrid_routing` (`valueType: JSON`): those sections;
/// - `hybrid_feature_<name>` (`valueType: JSON`): one feature;
/// - `version.description`: the document `description`.
/// JSON values travel as strings in `defaultValue.value`, as the REST format requires. On import, parameters in
/// `parameterGroups` are read too; `conditionalValues` are ignored (with a warning) because they would make the
/// config differ per device outside HybridAI's own rollouts; other parameters are left alone. `$schema` is not
/// carried. References: firebase.google.com/docs/remote-config/templates and
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
        /// Parameters ignored and conditional values dropped.
        public var warnings: [ConfigIssue]
    }

    /// The Firebase template for `document`, as pretty JSON with sorted keys.
    public static func exportTemplate(_ document: HybridConfigDocument) throws(ConfigError) -> Data {
        var parameters: [String: JSONValue] = [:]
        func add(_ name: String, _ value: some Encodable, type: String, description: String) throws(ConfigError) {
            let text: String
            if let number = value as? Int {
                text = String(number)
            } else {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                do {
                    text = String(decoding: try encoder.encode(value), as: UTF8.self)
                } catch {
                    throw .firebase(path: "parameters.\(name)", reason: "cannot encode: \(error)")
                }
            }
            parameters[name] = [
                "defaultValue": ["value": .string(text)],
                "valueType": .string(type),
                "description": .string(description),
            ]
        }
        try add("hybrid_version", document.version, type: "NUMBER", description: "HybridAI config version; must increase with every publish")
        try add("hybrid_models", document.models, type: "JSON", description: "HybridAI models: id → provider, endpoint, prices")
        for (name, feature) in document.features {
            try add(featurePrefix + name, feature, type: "JSON", description: "HybridAI feature \(name): prompts, schema, priority order")
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
        if let description = document.description {
            template["version"] = ["description": .string(description)]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return try encoder.encode(JSONValue.object(template))
        } catch {
            throw .firebase(path: "$", reason: "cannot encode: \(error)")
        }
    }

    /// Reads a Firebase template (as returned by `GET …/remoteConfig` or the console's download).
    public static func importTemplate(_ data: Data) throws(ConfigError) -> ImportResult {
        let template: JSONValue
        do {
            template = try JSONDecoder().decode(JSONValue.self, from: data)
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
        var document: [String: JSONValue] = [:]
        var features: [String: JSONValue] = [:]
        for (name, path, parameter) in found {
            guard name.hasPrefix(prefix) else {
                warnings.append(ConfigIssue(path: path, message: "not a HybridAI parameter (ignored)", severity: .warning))
                continue
            }
            if parameter["conditionalValues"] != nil {
                warnings.append(ConfigIssue(path: path + ".conditionalValues", message: "conditional values are ignored; use HybridAI rollouts", severity: .warning))
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
            let value: JSONValue
            do {
                value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            } catch {
                throw .firebase(path: path + ".defaultValue.value", reason: "not valid JSON: \(error)")
            }
            switch name {
            case "hybrid_models": document["models"] = value
            case "hybrid_rollouts": document["rollouts"] = value
            case "hybrid_provenance": document["provenance"] = value
            case "hybrid_routing": document["routing"] = value
            case let n where n.hasPrefix(featurePrefix): features[String(n.dropFirst(featurePrefix.count))] = value
            default:
                warnings.append(ConfigIssue(path: path, message: "unknown HybridAI parameter (ignored)", severity: .warning))
            }
        }
        if document["version"] == nil {
            guard let number = template["version"]?["versionNumber"]?.stringValue.flatMap({ Int($0) }) else {
                throw .firebase(path: "parameters.hybrid_version", reason: "missing, and the template has no version.versionNumber")
            }
            document["version"] = .int(number)
        }
        guard document["models"] != nil else { throw .firebase(path: "parameters.hybrid_models", reason: "missing") }
        guard !features.isEmpty else { throw .firebase(path: "parameters", reason: "no hybrid_feature_<name> parameter") }
        document["features"] = .object(features)
        if let description = template["version"]?["description"]?.stringValue { document["description"] = .string(description) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(JSONValue.object(document))
        } catch {
            throw .firebase(path: "$", reason: "cannot encode: \(error)")
        }
        return ImportResult(document: try ConfigValidator.decode(json), json: json, warnings: warnings)
    }
}
