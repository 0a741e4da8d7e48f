/// Turns schema JSON into ``SchemaNode``s, checking every keyword's shape so validation never meets a bad schema.
///
/// `$ref` targets are parsed once into ``targets`` keyed by JSON Pointer, so validation resolves a reference with
/// one dictionary lookup whatever form (`#/$defs/x`, `#/definitions/x`, `#anchor`, `#`) it was written in.
struct SchemaParser {
    /// The whole schema document, for resolving JSON Pointers.
    let document: JSONValue
    /// The root `$id`, stripped from references that repeat it (`https://x/s.json#/$defs/a`).
    var rootID: String?
    /// `$anchor` names and where they are.
    var anchors: [String: SchemaReference] = [:]
    /// Parsed reference targets; `.root` is added by ``JSONSchema/init(_:)`` once the root is parsed.
    var targets: [SchemaReference: SchemaNode] = [:]
    /// References seen but not parsed yet, with the path of the `$ref` that named them.
    var pending: [(reference: SchemaReference, path: JSONPath)] = []
    /// Whether any `$ref` was read: without one no reference cycle can exist, so the cycle check is skipped.
    var sawReference = false

    init(document: JSONValue) throws(SchemaError) {
        self.document = document
        if case .object(let members) = document, case .string(let id)? = members["$id"] {
            rootID = id.split(separator: "#", omittingEmptySubsequences: false).first.map(String.init)
        }
        try collectAnchors(document, at: [])
    }

    private static let supported = Set(JSONSchema.supportedKeywords)
    /// Keywords whose value is one schema.
    static let schemaValued: Set<String> = [
        "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains", "additionalItems",
    ]
    /// Keywords whose value is a non-empty array of schemas (`items` too, in its draft 2019-09 tuple form).
    static let schemaArrays: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
    /// Keywords whose value maps names to schemas.
    static let schemaMaps: Set<String> = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]

    /// Parses everything reachable from `value`, recording `$ref`s for ``resolvePendingReferences()``.
    mutating func parse(_ value: JSONValue, at path: JSONPath) throws(SchemaError) -> SchemaNode {
        switch value {
        case .bool(let b):
            return .always(b)
        case .object(let members):
            return .keywords(SchemaRules(try parseKeywords(members, at: path)))
        default:
            throw .notASchema(path: path.keywordPath, found: value.typeName)
        }
    }

    /// Parses every referenced location not parsed yet (targets may reference further locations).
    mutating func resolvePendingReferences() throws(SchemaError) {
        while let (reference, path) = pending.popLast() {
            guard targets[reference] == nil else { continue }
            guard let value = Self.value(at: reference.tokens, in: document) else {
                throw .unresolvedReference(path: path.keywordPath, reference: reference.description, reason: "nothing there")
            }
            targets[reference] = try parse(value, at: reference.path)
        }
    }

    private mutating func parseKeywords(
        _ members: [String: JSONValue], at path: JSONPath
    ) throws(SchemaError) -> SchemaKeywords {
        // Sorted with their values: each keyword is then read without a second lookup.
        let sorted = members.sorted { $0.key < $1.key }
        for (key, _) in sorted where !Self.supported.contains(key) && !key.hasPrefix("x-") {
            throw .unsupportedKeyword(path: path.appending(key: key).keywordPath, keyword: key)
        }
        var k = SchemaKeywords()
        for (key, value) in sorted {
            try parseKeyword(key, value, under: path, in: members, into: &k)
        }
        try checkRanges(k, at: path)
        return k
    }

    /// `parent` is the path of the schema holding `key`; the keyword's own path is built only where it is used (a
    /// subschema or an error): most keywords of the schemas in a config need neither, on every load.
    private mutating func parseKeyword(
        _ key: String, _ value: JSONValue, under parent: JSONPath, in members: [String: JSONValue],
        into k: inout SchemaKeywords
    ) throws(SchemaError) {
        var here: JSONPath { parent.appending(key: key) }
        let bad = { (reason: String) -> SchemaError in
            .invalidKeywordValue(path: parent.appending(key: key).keywordPath, keyword: key, reason: reason)
        }
        switch key {
        case "type": k.types = try Self.parseTypes(value, bad: bad)
        case "nullable": k.nullable = try Self.bool(value, bad: bad)
        case "enum":
            guard case .array(let options) = value, !options.isEmpty else {
                throw bad("expected a non-empty array of allowed values")
            }
            k.enumValues = options
        case "const": k.constValue = value
        case "$ref": k.reference = try parseReference(value, at: here)
        case "allOf", "anyOf", "oneOf", "prefixItems":
            let nodes = try schemaArray(value, at: here, bad: bad)
            switch key {
            case "allOf": k.allOf = nodes
            case "anyOf": k.anyOf = nodes
            case "oneOf": k.oneOf = nodes
            default: k.prefixItems = nodes
            }
        case "items": try parseItems(value, at: here, in: members, into: &k, bad: bad)
        case "additionalItems": try parseAdditionalItems(value, at: here, in: members, into: &k)
        case "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties":
            let node = try parse(value, at: here)
            switch key {
            case "not": k.not = node
            case "if": k.ifSchema = node
            case "then": k.thenSchema = node
            case "else": k.elseSchema = node
            case "contains": k.contains = node
            case "propertyNames": k.propertyNames = node
            default: k.additionalProperties = node
            }
        case "properties", "dependentSchemas", "patternProperties", "$defs", "definitions":
            try parseSchemaMap(key, value, at: here, into: &k, bad: bad)
        case "required": k.required = try Self.uniqueStrings(value, bad: bad)
        case "dependentRequired":
            guard case .object(let map) = value else { throw bad("expected an object of property-name arrays") }
            for name in map.keys.sorted() {
                let inner = { (reason: String) -> SchemaError in bad("'\(name)': \(reason)") }
                k.dependentRequired[name] = try Self.uniqueStrings(map[name] ?? .null, bad: inner)
            }
        case "pattern":
            k.pattern = try Self.pattern(value, at: here, bad: bad)
        case "format":
            guard case .string(let name) = value else { throw bad("expected a string, got \(value.typeName)") }
            k.format = StringFormat(rawValue: name)
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
            try Self.parseNumberLimit(key, value, into: &k, bad: bad)
        case "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties", "minContains",
            "maxContains":
            try Self.parseCount(key, value, into: &k, bad: bad)
        case "uniqueItems": k.uniqueItems = try Self.bool(value, bad: bad)
        default:
            try checkAnnotation(key, value, under: parent, bad: bad)
        }
    }

    /// `items` as one schema (2020-12), or as an array of schemas: the draft 2019-09 tuple form, read as
    /// `prefixItems` so schemas written for older drafts keep their meaning.
    private mutating func parseItems(
        _ value: JSONValue, at here: JSONPath, in members: [String: JSONValue], into k: inout SchemaKeywords,
        bad: (String) -> SchemaError
    ) throws(SchemaError) {
        guard case .array = value else {
            k.items = try parse(value, at: here)
            return
        }
        guard members["prefixItems"] == nil else {
            throw bad("the array (tuple) form cannot be combined with 'prefixItems'; give 'items' one schema for the elements after them")
        }
        k.prefixItems = try schemaArray(value, at: here, bad: bad)
    }

    /// `additionalItems` only has a meaning next to tuple-form `items` (draft 2019-09); 2020-12 spells it `items`.
    private mutating func parseAdditionalItems(
        _ value: JSONValue, at here: JSONPath, in members: [String: JSONValue], into k: inout SchemaKeywords
    ) throws(SchemaError) {
        guard case .array? = members["items"] else {
            throw .unsupportedKeyword(path: here.keywordPath, keyword: "additionalItems")
        }
        k.items = try parse(value, at: here)
    }

    private mutating func parseSchemaMap(
        _ key: String, _ value: JSONValue, at here: JSONPath, into k: inout SchemaKeywords,
        bad: (String) -> SchemaError
    ) throws(SchemaError) {
        guard case .object(let map) = value else {
            throw bad("expected an object mapping names to schemas, got \(value.typeName)")
        }
        for name in map.keys.sorted() {
            let node = try parse(map[name] ?? .null, at: here.appending(key: name))
            switch key {
            case "properties": k.properties[name] = node
            case "dependentSchemas": k.dependentSchemas[name] = node
            case "patternProperties":
                let pattern = try Self.pattern(.string(name), at: here.appending(key: name), bad: bad)
                k.patternProperties.append(PatternSchema(pattern: pattern, schema: node))
            default: break  // $defs / definitions: reachable only through $ref, parsed here so errors show early.
            }
        }
    }

    private mutating func schemaArray(
        _ value: JSONValue, at here: JSONPath, bad: (String) -> SchemaError
    ) throws(SchemaError) -> [SchemaNode] {
        guard case .array(let branches) = value, !branches.isEmpty else {
            throw bad("expected a non-empty array of schemas")
        }
        var nodes: [SchemaNode] = []
        for (i, branch) in branches.enumerated() {
            nodes.append(try parse(branch, at: here.appending(index: i)))
        }
        return nodes
    }

    /// Annotations never change a verdict; their shapes are still checked so a typo'd value is caught.
    private func checkAnnotation(
        _ key: String, _ value: JSONValue, under parent: JSONPath, bad: (String) -> SchemaError
    ) throws(SchemaError) {
        switch key {
        case "title", "description", "$comment", "$schema", "contentMediaType", "contentEncoding":
            guard case .string = value else { throw bad("expected a string, got \(value.typeName)") }
        case "deprecated", "readOnly", "writeOnly":
            _ = try Self.bool(value, bad: bad)
        case "examples":
            guard case .array = value else { throw bad("expected an array, got \(value.typeName)") }
        case "propertyOrdering", "x-order":
            _ = try Self.uniqueStrings(value, bad: bad)
        case "$id":
            guard case .string = value else { throw bad("expected a string, got \(value.typeName)") }
            guard parent.components.isEmpty else {
                throw bad("'$id' is only supported at the root; a nested '$id' changes the base URI of its references")
            }
        case "$anchor":
            guard case .string(let name) = value, Self.isAnchorName(name) else {
                throw bad("expected a name matching [A-Za-z_][-A-Za-z0-9._]*")
            }
        default:
            break  // default, example, x-… extensions: any value.
        }
    }
}

extension SchemaParser {
    static func bool(_ value: JSONValue, bad: (String) -> SchemaError) throws(SchemaError) -> Bool {
        guard case .bool(let b) = value else { throw bad("expected true or false, got \(value.typeName)") }
        return b
    }

    static func uniqueStrings(_ value: JSONValue, bad: (String) -> SchemaError) throws(SchemaError) -> [String] {
        guard case .array(let names) = value else {
            throw bad("expected an array of property names, got \(value.typeName)")
        }
        var seen = Set<String>()
        var out: [String] = []
        for (i, name) in names.enumerated() {
            guard case .string(let s) = name else { throw bad("element [\(i)] is \(name.typeName), expected a string") }
            guard seen.insert(s).inserted else { throw bad("'\(s)' is listed twice") }
            out.append(s)
        }
        return out
    }

    static func pattern(
        _ value: JSONValue, at here: JSONPath, bad: (String) -> SchemaError
    ) throws(SchemaError) -> CompiledPattern {
        guard case .string(let pattern) = value else {
            throw bad("expected a regular expression string, got \(value.typeName)")
        }
        do {
            return try CompiledPattern(pattern)
        } catch {
            throw .invalidPattern(path: here.keywordPath, pattern: pattern, reason: "\(error)")
        }
    }

    static func parseNumberLimit(
        _ key: String, _ value: JSONValue, into k: inout SchemaKeywords, bad: (String) -> SchemaError
    ) throws(SchemaError) {
        guard let limit = SchemaNumber(value) else { throw bad("expected a number, got \(value.typeName)") }
        switch key {
        case "minimum": k.minimum = limit
        case "maximum": k.maximum = limit
        case "exclusiveMinimum": k.exclusiveMinimum = limit
        case "exclusiveMaximum": k.exclusiveMaximum = limit
        default:
            guard limit.compare(to: .int(0)) > 0 else { throw bad("expected a number greater than 0, got \(limit)") }
            k.multipleOf = limit
        }
    }

    /// A non-negative integer; Gemini's REST schema encodes these int64 fields as strings (`"minItems": "1"`).
    static func parseCount(
        _ key: String, _ value: JSONValue, into k: inout SchemaKeywords, bad: (String) -> SchemaError
    ) throws(SchemaError) {
        var count = value.intValue
        if case .string(let digits) = value, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            count = Int(digits)
        }
        guard let count, count >= 0 else { throw bad("expected a non-negative integer, got \(value.compactJSON())") }
        switch key {
        case "minItems": k.minItems = count
        case "maxItems": k.maxItems = count
        case "minLength": k.minLength = count
        case "maxLength": k.maxLength = count
        case "minProperties": k.minProperties = count
        case "maxProperties": k.maxProperties = count
        case "minContains": k.minContains = count
        default: k.maxContains = count
        }
    }

    /// Type names as JSON Schema spells them, or in Gemini's upper case (`STRING`, `OBJECT`).
    static func parseTypes(_ value: JSONValue, bad: (String) -> SchemaError) throws(SchemaError) -> [SchemaType] {
        func one(_ v: JSONValue) throws(SchemaError) -> SchemaType {
            guard case .string(let name) = v,
                let type = SchemaType(rawValue: name) ?? (name == name.uppercased() ? SchemaType(rawValue: name.lowercased()) : nil)
            else {
                // Spelled out only on failure: every config load parses every feature's schema.
                let allowed = SchemaType.allCases.map(\.rawValue).joined(separator: ", ")
                throw bad("\(v.compactJSON()) is not a type (expected one of \(allowed))")
            }
            return type
        }
        guard case .array(let names) = value else { return [try one(value)] }
        guard !names.isEmpty else { throw bad("expected at least one type") }
        var types: [SchemaType] = []
        for name in names {
            let type = try one(name)
            guard !types.contains(type) else { throw bad("'\(type.rawValue)' is listed twice") }
            types.append(type)
        }
        return types
    }

    static func isAnchorName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._".unicodeScalars.contains($0)) }
    }

    /// Limits that exclude every value are almost always a typo in a config, so they are rejected here.
    func checkRanges(_ k: SchemaKeywords, at path: JSONPath) throws(SchemaError) {
        func check<T: CustomStringConvertible>(
            _ low: T?, _ high: T?, _ lowName: String, _ highName: String, _ above: (T, T) -> Bool
        ) throws(SchemaError) {
            if let low, let high, above(low, high) {
                throw .invalidKeywordValue(
                    path: path.appending(key: lowName).keywordPath, keyword: lowName,
                    reason: "\(lowName) (\(low)) is greater than \(highName) (\(high)); no value can satisfy both")
            }
        }
        try check(k.minimum, k.maximum, "minimum", "maximum") { $0.compare(to: $1) > 0 }
        try check(k.minItems, k.maxItems, "minItems", "maxItems", >)
        try check(k.minLength, k.maxLength, "minLength", "maxLength", >)
        try check(k.minProperties, k.maxProperties, "minProperties", "maxProperties", >)
        try check(k.minContains, k.maxContains, "minContains", "maxContains", >)
    }
}
