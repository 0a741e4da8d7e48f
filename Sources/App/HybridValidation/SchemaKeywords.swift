/// Where a `$ref` points: a JSON Pointer into the schema document (empty for the root).
///
/// `#name` anchors and `#/$defs/…` pointers are both resolved to a pointer at parse time, so validation only
/// ever looks up one table.
struct SchemaReference: Sendable, Hashable, CustomStringConvertible {
    /// Unescaped pointer tokens from the document root.
    var tokens: [String]

    static let root = SchemaReference(tokens: [])

    var description: String {
        "#" + tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    /// Where the target is in the schema document; numeric tokens are array indices (`allOf[0]`).
    var path: JSONPath {
        JSONPath(components: tokens.map { token in Int(token).map { .index($0) } ?? .key(token) })
    }

    /// The keyword path used in error messages (`$defs.node`, `$` for the root).
    var keywordPath: String { path.keywordPath }
}

/// A parsed schema position: `true`/`false`, or a set of keywords.
enum SchemaNode: Sendable {
    case always(Bool)
    case keywords(SchemaRules)
}

/// The keywords of one schema object behind one reference. Validation reads single fields through it
/// (`rules.k.items`), which the compiler turns into one load; binding the struct itself would copy (and retain)
/// each of its many fields on every visit, which measured as most of the validation time.
final class SchemaRules: Sendable {
    let k: SchemaKeywords

    init(_ keywords: SchemaKeywords) {
        k = keywords
    }
}

/// A `patternProperties` entry: members whose name matches `pattern` must satisfy `schema`.
struct PatternSchema: Sendable {
    var pattern: CompiledPattern
    var schema: SchemaNode
}

/// The assertions of one schema object; nil/empty means the keyword is absent.
struct SchemaKeywords: Sendable {
    // Any instance type.
    var types: [SchemaType]?
    /// Gemini / OpenAPI 3.0 `nullable: true`: adds `null` to the types named by `type` (nothing without `type`).
    var nullable = false
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    var reference: SchemaReference?
    // Applicators on the same instance.
    var allOf: [SchemaNode]?
    var anyOf: [SchemaNode]?
    var oneOf: [SchemaNode]?
    var not: SchemaNode?
    var ifSchema: SchemaNode?
    var thenSchema: SchemaNode?
    var elseSchema: SchemaNode?
    var dependentSchemas: [String: SchemaNode] = [:]
    // Numbers.
    var minimum: SchemaNumber?
    var maximum: SchemaNumber?
    var exclusiveMinimum: SchemaNumber?
    var exclusiveMaximum: SchemaNumber?
    var multipleOf: SchemaNumber?
    // Strings.
    var minLength: Int?
    var maxLength: Int?
    var pattern: CompiledPattern?
    var format: StringFormat?
    // Arrays.
    var prefixItems: [SchemaNode]?
    /// Applies to the elements after `prefixItems` (to every element when there is none).
    var items: SchemaNode?
    var contains: SchemaNode?
    var minContains: Int?
    var maxContains: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    // Objects.
    var properties: [String: SchemaNode] = [:]
    var patternProperties: [PatternSchema] = []
    var additionalProperties: SchemaNode?
    var propertyNames: SchemaNode?
    var required: [String] = []
    var dependentRequired: [String: [String]] = [:]
    var minProperties: Int?
    var maxProperties: Int?

    /// The subschemas that apply to the same instance as this one, where a `$ref` cycle would never terminate.
    var inPlaceSubschemas: [SchemaNode] {
        var nodes = (allOf ?? []) + (anyOf ?? []) + (oneOf ?? [])
        nodes += [not, ifSchema, thenSchema, elseSchema].compactMap { $0 }
        nodes += dependentSchemas.keys.sorted().compactMap { dependentSchemas[$0] }
        return nodes
    }
}
