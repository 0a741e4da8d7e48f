/// A parsed JSON Schema (2020-12 semantics) that validates ``JSONValue``s; accepts the schemas apps already write
/// for OpenAI Structured Outputs, Gemini's response schema and Foundation Models' `GenerationSchema`.
///
/// Parsing rejects every keyword outside ``supportedKeywords`` with its path (an unsupported keyword in a config is
/// an error, never silently ignored); names starting with `x-` are extensions and ignored. Semantics follow
/// JSON Schema 2020-12: `3.0` is an `integer`, `minLength` counts Unicode code points, numbers compare exactly
/// (`multipleOf: 0.01` accepts `0.07`), `pattern` is unanchored, and `format` asserts the formats in
/// ``assertedFormats`` (other values are annotations). Dialect additions, none of which changes a standard schema's
/// meaning: Gemini's `nullable` and upper-case type names (`STRING`), counts written as strings (`"minItems": "1"`),
/// draft 2019-09 tuple `items` (an array, with `additionalItems`), draft-07 `definitions`.
/// `$ref` resolves inside the document only: `#`, JSON Pointers (`#/$defs/a`, `#/definitions/a`), `#anchor`.
public struct JSONSchema: Sendable, Hashable {
    /// Every keyword this validator understands, in the order error messages list them.
    package static let supportedKeywords: [String] = [
        "type", "enum", "const", "nullable",
        "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
        "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
        "items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "minItems", "maxItems",
        "uniqueItems",
        "minLength", "maxLength", "pattern", "format",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
        "$ref", "$defs", "definitions", "$id", "$anchor", "$schema", "$comment",
    ] + annotationKeywords

    /// Keywords accepted and ignored: they describe, never constrain (also any name starting with `x-`).
    /// `propertyOrdering` (Gemini) and `x-order` (Foundation Models) fix the order a model writes keys in, which
    /// JSON object equality does not see.
    static let annotationKeywords: [String] = [
        "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
        "propertyOrdering", "x-order", "contentMediaType", "contentEncoding",
    ]

    /// `format` values that are asserted; any other `format` is an annotation and never fails.
    package static let assertedFormats: [String] = StringFormat.allCases.map(\.rawValue)

    /// The schema exactly as given; equality and encoding use it.
    public let source: JSONValue
    let root: SchemaNode
    /// Every `$ref` target (and the root), keyed by JSON Pointer.
    let targets: [SchemaReference: SchemaNode]

    /// Parses `schema`, throwing the first problem found (keys are visited in sorted order, so it is stable).
    public init(_ schema: JSONValue) throws(SchemaError) {
        var parser = try SchemaParser(document: schema)
        let root = try parser.parse(schema, at: .root)
        parser.targets[.root] = root
        try parser.resolvePendingReferences()
        if parser.sawReference { try SchemaParser.checkReferenceCycles(targets: parser.targets) }
        self.source = schema
        self.root = root
        self.targets = parser.targets
    }

    public static func == (lhs: JSONSchema, rhs: JSONSchema) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

extension JSONSchema: Codable {
    /// Decodes the schema as JSON and parses it; a ``SchemaError`` surfaces as `DecodingError.dataCorrupted`
    /// whose description carries the schema path.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(value)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "invalid JSON Schema: \(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try source.encode(to: encoder)
    }
}

/// The JSON Schema primitive types.
enum SchemaType: String, Sendable, CaseIterable {
    case null, boolean, integer, number, string, array, object

    /// JSON Schema says any number with a zero fractional part is an integer, so `3.0` matches `integer`.
    func matches(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.null, .null), (.boolean, .bool), (.string, .string), (.array, .array), (.object, .object): true
        case (.integer, .int), (.number, .int), (.number, .double): true
        case (.integer, .double(let d)): d.isFinite && d.rounded() == d
        default: false
        }
    }
}
