import HybridConfig
import HybridCore

extension FirebaseRemoteConfig {
    /// A template's conditions as read: those HybridAI can state, in the template's order, and those left out.
    struct ImportedConditions {
        /// The conditions that map, in the template's order.
        var conditions: [ConfigCondition] = []
        /// Firebase name → HybridAI name of each condition that maps (the same unless it had to be renamed).
        var names: [String: String] = [:]
        /// Each condition left out: its position, Firebase name and why.
        var leftOut: [(index: Int, name: String, reason: String)] = []
        /// Renamed conditions.
        var renamed: [ConfigIssue] = []

        /// The warnings to report; `users` names the parameters whose conditional values each left-out condition took.
        func warnings(users: [String: [String]]) -> [ConfigIssue] {
            var out = renamed
            for (index, name, reason) in leftOut {
                let who = users[name].map { "its conditional values in \($0.joined(separator: ", ")) are left out too" }
                    ?? "no HybridAI parameter uses it"
                out.append(ConfigIssue(
                    path: "conditions[\(index)]", message: "condition \"\(name)\" left out: \(reason); \(who)", severity: .warning))
            }
            return out.sorted { $0.path < $1.path }
        }
    }

    /// The template's `conditions`, read with `FirebaseConditionExpression`.
    static func importConditions(_ template: JSONValue) throws(ConfigError) -> ImportedConditions {
        var out = ImportedConditions()
        guard let list = template["conditions"] else { return out }
        guard let entries = list.arrayValue else { throw .firebase(path: "conditions", reason: "expected an array") }
        for (i, entry) in entries.enumerated() {
            guard let name = entry["name"]?.stringValue, let expression = entry["expression"]?.stringValue else {
                throw .firebase(path: "conditions[\(i)]", reason: "needs a name and an expression")
            }
            // Firebase allows spaces and ' ! % in names; HybridAI's are identifiers, so such a name is spelled anew.
            var hybridName = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar) ? scalar : "_"
            }))
            while out.names.values.contains(hybridName) { hybridName += "_" }
            do {
                out.conditions.append(try FirebaseConditionExpression.condition(named: hybridName, expression: expression))
                out.names[name] = hybridName
                if hybridName != name {
                    out.renamed.append(ConfigIssue(
                        path: "conditions[\(i)].name",
                        message: "\"\(name)\" is imported as \"\(hybridName)\": HybridAI condition names use letters, digits, '-', '_' and '.'",
                        severity: .warning))
                }
            } catch {
                out.leftOut.append((i, name, error.reason))
            }
        }
        return out
    }

    /// The feature `feature` (its default value) with its conditional values as `overrides`, the warnings, and the
    /// Firebase names of left-out conditions it had values for.
    static func overrides(
        of feature: String, _ values: [String: JSONValue], default base: JSONValue, conditions: ImportedConditions, path: String
    ) throws(ConfigError) -> (feature: JSONValue, warnings: [ConfigIssue], leftOut: [String]) {
        guard var members = base.objectValue else { return (base, [], []) }
        var overrides = members["overrides"]?.objectValue ?? [:]
        var warnings: [ConfigIssue] = []
        var leftOut: [String] = []
        func warn(_ path: String, _ message: String) { warnings.append(ConfigIssue(path: path, message: message, severity: .warning)) }
        for (name, entry) in values.sorted(by: { $0.key < $1.key }) {
            let cpath = path + ".conditionalValues" + step(name)
            if conditions.leftOut.contains(where: { $0.name == name }) {
                leftOut.append(name)
                continue
            }
            guard let hybridName = conditions.names[name] else {
                warn(cpath, "no condition \"\(name)\" in the template's conditions (ignored)")
                continue
            }
            guard let text = entry["value"]?.stringValue else {
                warn(cpath, "not a value (an in-app default, rollout, personalization or experiment value has no HybridAI override); ignored")
                continue
            }
            let value = try json(text, path: cpath + ".value")
            guard value.objectValue != nil else { throw .firebase(path: cpath + ".value", reason: "expected a feature object") }
            let (override, unexpressed) = diff(value, from: .object(members))
            if !unexpressed.isEmpty {
                let settable = FeatureOverride.CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
                warn(cpath, "\(unexpressed.joined(separator: ", ")) differ from the default value and an override cannot say so (ignored); an override sets \(settable) and only replaces or adds variants")
            }
            if overrides[hybridName] != nil { warn(cpath, "replaces the overrides.\(hybridName) written in the default value") }
            // Kept even when empty: an override that changes nothing still wins first match over later conditions.
            overrides[hybridName] = override
        }
        if !overrides.isEmpty { members["overrides"] = .object(overrides) }
        return (.object(members), warnings, leftOut)
    }

    /// The override that turns feature `base` into `conditional` (both feature JSON), and the differences an override
    /// cannot state: fields outside `FeatureOverride`, and fields or variants the conditional value removes.
    static func diff(_ conditional: JSONValue, from base: JSONValue) -> (override: JSONValue, unexpressed: [String]) {
        let fields = Set(FeatureOverride.CodingKeys.allCases.map(\.rawValue))
        let new = conditional.objectValue ?? [:]
        let old = base.objectValue ?? [:]
        var override: [String: JSONValue] = [:]
        var unexpressed: [String] = []
        for key in Set(new.keys).union(old.keys).sorted() where key != "overrides" && new[key] != old[key] {
            if key == "variants" {
                let newVariants = new[key]?.objectValue ?? [:]
                let oldVariants = old[key]?.objectValue ?? [:]
                let changed = newVariants.filter { oldVariants[$0.key] != $0.value }
                if !changed.isEmpty { override[key] = .object(changed) }
                unexpressed += oldVariants.keys.filter { newVariants[$0] == nil }.sorted().map { "variants.\($0) (removed)" }
            } else if !fields.contains(key) {
                unexpressed.append(key)
            } else if let value = new[key] {
                override[key] = value
            } else {
                unexpressed.append("\(key) (removed)")
            }
        }
        return (.object(override), unexpressed)
    }

    /// `.key`, or `["key"]` for a key that is not a plain identifier (a console condition name with spaces).
    private static func step(_ key: String) -> String {
        let rendered = ConfigPath([.key(key)]).description
        return rendered.hasPrefix("[") ? rendered : "." + rendered
    }
}
