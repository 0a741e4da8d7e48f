import HybridCore

/// Converts a JSON Schema into the schema `generationConfig.responseSchema` accepts.
///
/// The Gemini API takes a subset of the OpenAPI 3.0 Schema object: `type` is an upper-case enum (`OBJECT`,
/// `STRING`…), nullability is `nullable: true` rather than a `["string", "null"]` type list, and keywords outside
/// the subset (`additionalProperties`, `$schema`, `$defs`…) are rejected. Those are dropped here; callers still
/// validate the output against their full schema.
enum GeminiSchema {
    private static let kept: Set<String> = [
        "description", "enum", "format", "nullable", "required", "minItems", "maxItems", "minimum", "maximum",
        "minLength", "maxLength", "pattern", "title", "propertyOrdering", "minProperties", "maxProperties",
        "default", "example",
    ]

    static func convert(_ schema: JSONValue) -> JSONValue {
        guard let members = schema.objectValue else { return schema }
        var out: [String: JSONValue] = [:]
        for (key, value) in members {
            switch key {
            case "type":
                if let name = value.stringValue {
                    out["type"] = .string(name.uppercased())
                } else if let names = value.arrayValue?.compactMap(\.stringValue) {
                    let concrete = names.filter { $0 != "null" }
                    if let first = concrete.first { out["type"] = .string(first.uppercased()) }
                    if names.contains("null") { out["nullable"] = true }
                }
            case "properties":
                out["properties"] = .object((value.objectValue ?? [:]).mapValues(convert))
                // Gemini generates properties alphabetically unless told an order: the required list's, which a
                // derived schema writes in declaration order.
                if members["propertyOrdering"] == nil, let required = members["required"]?.arrayValue {
                    let names = required.compactMap(\.stringValue).filter { value.objectValue?[$0] != nil }
                    if !names.isEmpty { out["propertyOrdering"] = .array(names.map(JSONValue.string)) }
                }
            case "items":
                out["items"] = convert(value)
            case "anyOf":
                out["anyOf"] = .array((value.arrayValue ?? []).map(convert))
            case "const":
                out["enum"] = [value]
            default:
                if kept.contains(key) { out[key] = value }
            }
        }
        return .object(out)
    }
}
