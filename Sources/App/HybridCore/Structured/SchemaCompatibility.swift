/// Whether every answer a config's `outputSchema` admits still decodes into the app's type, whose schema is `type`:
/// the app ships the type, the config can change later, so a fetched config must not loosen what the type needs.
///
/// Checked structurally (the schemas' `type`, `properties`, `required`, `enum` and `items`): a property the type
/// requires must be required by the config too; a value's JSON types under the config must be among the type's
/// (`integer` counts as a `number`); an enum may only narrow. Properties the config adds are fine: decoding ignores
/// keys a type does not declare.
package enum SchemaCompatibility {
    /// The problems, each with the path of the config schema where it is (`properties.topics.items`); empty when
    /// compatible.
    package static func problems(config: JSONValue, type: JSONValue, path: String = "") -> [String] {
        var out: [String] = []
        let here = path.isEmpty ? "the schema" : path
        let allowed = types(type)
        if let offered = typesIfStated(config), let allowed {
            let extra = offered.subtracting(allowed).filter { !($0 == "integer" && allowed.contains("number")) }
            if !extra.isEmpty {
                out.append("\(here) admits \(extra.sorted().joined(separator: ", ")); the app decodes only \(allowed.sorted().joined(separator: ", "))")
            }
        }
        if let choices = type["enum"]?.arrayValue {
            let offered = config["enum"]?.arrayValue
            if let offered {
                let outside = offered.filter { !choices.contains($0) }
                if !outside.isEmpty { out.append("\(here) admits \(outside.map(show).joined(separator: ", ")), outside the app's cases") }
            } else {
                out.append("\(here) admits any value; the app decodes only \(choices.map(show).joined(separator: ", "))")
            }
        }
        let required = Set(config["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let configProperties = config["properties"]?.objectValue ?? [:]
        for (name, property) in (type["properties"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            let childPath = (path.isEmpty ? "" : path + ".") + "properties." + name
            let nullable = types(property)?.contains("null") ?? false
            if !nullable && !required.contains(name) {
                out.append("\(childPath) is not required; the app needs it in every answer")
            }
            if let child = configProperties[name] {
                out += problems(config: child, type: property, path: childPath)
            }
        }
        if let items = type["items"], let configItems = config["items"] {
            out += problems(config: configItems, type: items, path: (path.isEmpty ? "" : path + ".") + "items")
        }
        return out
    }

    private static func show(_ value: JSONValue) -> String {
        value.stringValue.map { "\"\($0)\"" } ?? String(describing: value)
    }

    /// The JSON types a schema names (`type` as a string or a list; `anyOf` of typed branches); nil when unstated.
    private static func types(_ schema: JSONValue) -> Set<String>? {
        if let stated = typesIfStated(schema) { return stated }
        guard let branches = schema["anyOf"]?.arrayValue else { return nil }
        var all: Set<String> = []
        for branch in branches {
            guard let branchTypes = types(branch) else { return nil }
            all.formUnion(branchTypes)
        }
        return all
    }

    private static func typesIfStated(_ schema: JSONValue) -> Set<String>? {
        switch schema["type"] {
        case .string(let name)?: [name]
        case .array(let names)?: Set(names.compactMap(\.stringValue))
        default: nil
        }
    }
}
