/// Why a JSON Schema could not be used; thrown by ``JSONSchema/init(_:)``.
///
/// Every case carries the keyword path inside the schema (`properties.items.items.maxLength`, `$` for the root)
/// so a config author can find the line to fix. ``description`` renders `path: message`.
public enum SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A keyword outside ``JSONSchema/supportedKeywords``; rejected rather than silently ignored.
    case unsupportedKeyword(path: String, keyword: String)
    /// A schema position holds something that is neither an object nor a boolean.
    case notASchema(path: String, found: String)
    /// A supported keyword with a value of the wrong shape, or limits that can never be met (`minimum > maximum`).
    case invalidKeywordValue(path: String, keyword: String, reason: String)
    /// A `pattern` that does not compile.
    case invalidPattern(path: String, pattern: String, reason: String)
    /// A `$ref` that is not `#`, a JSON Pointer to an existing location (`#/$defs/<name>`) or a declared `#anchor`.
    case unresolvedReference(path: String, reference: String, reason: String)
    /// `$ref`s that lead back to themselves without descending into the instance, which would never terminate.
    case referenceCycle(path: String, chain: [String])

    /// Where in the schema the problem is.
    public var path: String {
        switch self {
        case .unsupportedKeyword(let path, _), .notASchema(let path, _), .invalidKeywordValue(let path, _, _),
            .invalidPattern(let path, _, _), .unresolvedReference(let path, _, _), .referenceCycle(let path, _):
            path
        }
    }

    /// What is wrong, without the path.
    public var message: String {
        switch self {
        case .unsupportedKeyword(_, let keyword):
            let hint = Self.hints[keyword].map { "; \($0)" } ?? ""
            return "keyword '\(keyword)' is not supported (supported: "
                + JSONSchema.supportedKeywords.joined(separator: ", ") + ")" + hint
        case .notASchema(_, let found):
            return "expected a schema (an object or a boolean), got \(found)"
        case .invalidKeywordValue(_, let keyword, let reason):
            return "invalid value for '\(keyword)': \(reason)"
        case .invalidPattern(_, let pattern, let reason):
            return "invalid regular expression '\(pattern)': \(reason)"
        case .unresolvedReference(_, let reference, let reason):
            return "cannot resolve $ref '\(reference)': \(reason)"
        case .referenceCycle(_, let chain):
            return "$ref cycle that never reaches a value: " + chain.joined(separator: " → ")
        }
    }

    public var description: String { "\(path): \(message)" }

    private static let hints: [String: String] = [
        "unevaluatedProperties": "list the allowed keys under 'properties' and set 'additionalProperties': false",
        "unevaluatedItems": "use 'prefixItems' with 'items': false",
        "dependencies": "use 'dependentRequired' (arrays) or 'dependentSchemas' (schemas)",
        "additionalItems": "'additionalItems' only applies next to an array-form 'items'; use 'prefixItems' and 'items'",
        "$dynamicRef": "use '$ref'",
        "$recursiveRef": "use '$ref'",
        "id": "use '$id' (only at the root)",
    ]
}
