import Foundation
@testable import HybridCore
@testable import HybridValidation
import Testing

/// One schema, one instance, and the exact violations (`path: message`) expected; empty means it conforms.
struct SchemaCase: Sendable, CustomTestStringConvertible {
    var name: String
    var schema: JSONValue
    var instance: JSONValue
    var expected: [String]
    var testDescription: String { name }

    init(_ name: String, _ schema: JSONValue, _ instance: JSONValue, _ expected: [String] = []) {
        self.name = name
        self.schema = schema
        self.instance = instance
        self.expected = expected
    }
}

let nestedItemsSchema: JSONValue = [
    "type": "object",
    "properties": [
        "items": [
            "type": "array",
            "items": [
                "type": "object",
                "properties": ["tags": ["type": "array", "items": ["type": "string"]]],
            ],
        ]
    ],
]

let treeSchema: JSONValue = [
    "$defs": [
        "node": [
            "type": "object",
            "properties": [
                "v": ["type": "integer"],
                "children": ["type": "array", "items": ["$ref": "#/$defs/node"]],
            ],
        ]
    ],
    "$ref": "#/$defs/node",
]

let schemaCases: [SchemaCase] = [
    // type
    SchemaCase("type string passes", ["type": "string"], "x"),
    SchemaCase("type string fails", ["type": "string"], 12, ["$: expected string, got integer 12"]),
    SchemaCase("3.0 is an integer", ["type": "integer"], 3.0),
    SchemaCase("3.5 is not an integer", ["type": "integer"], 3.5, ["$: expected integer, got number 3.5"]),
    SchemaCase("an integer is a number", ["type": "number"], 3),
    SchemaCase("boolean is not a number", ["type": "number"], true, ["$: expected number, got boolean true"]),
    SchemaCase("type union accepts null", ["type": ["string", "null"]], nil),
    SchemaCase("type union rejects", ["type": ["string", "null"]], 5, ["$: expected string or null, got integer 5"]),
    SchemaCase("type names an array", ["type": "object"], [1, 2], ["$: expected object, got array (2 items)"]),
    // properties
    SchemaCase("properties pass", ["properties": ["age": ["type": "integer"]]], ["age": 41]),
    SchemaCase(
        "properties fail with string number", ["properties": ["age": ["type": "integer"]]], ["age": "12"],
        [#"$.age: expected integer, got string "12""#]),
    SchemaCase(
        "nested arrays and objects", nestedItemsSchema, ["items": [["tags": ["a"]], ["tags": ["b", 7]]]],
        ["$.items[1].tags[1]: expected string, got integer 7"]),
    SchemaCase(
        "path of the first tag", nestedItemsSchema, ["items": [["tags": ["a"]], ["tags": [false]]]],
        ["$.items[1].tags[0]: expected string, got boolean false"]),
    SchemaCase(
        "key that is not an identifier", ["properties": ["first name": ["type": "string"]]], ["first name": 1],
        [#"$["first name"]: expected string, got integer 1"#]),
    // required
    SchemaCase("required present", ["required": ["title"]], ["title": "x"]),
    SchemaCase("required missing", ["required": ["title"]], ["name": "x"], ["$: missing required key 'title'"]),
    SchemaCase("required ignores non-objects", ["required": ["title"]], "text"),
    // additionalProperties
    SchemaCase(
        "additionalProperties false passes", ["properties": ["a": true], "additionalProperties": false], ["a": 1]),
    SchemaCase(
        "additionalProperties false fails", ["properties": ["a": true], "additionalProperties": false],
        ["a": 1, "b": 2], ["$.b: unexpected key 'b' (additionalProperties is false; allowed: 'a')"]),
    SchemaCase("additionalProperties schema passes", ["additionalProperties": ["type": "string"]], ["x": "y"]),
    SchemaCase(
        "additionalProperties schema fails", ["additionalProperties": ["type": "string"]], ["x": 1],
        ["$.x: expected string, got integer 1"]),
    // items
    SchemaCase("items pass", ["items": ["type": "integer"]], [1, 2, 3]),
    SchemaCase(
        "items report every element", ["items": ["type": "integer"]], [1, "a", 2.5],
        [#"$[1]: expected integer, got string "a""#, "$[2]: expected integer, got number 2.5"]),
    // enum and const
    SchemaCase("enum passes", ["enum": ["red", "green"]], "green"),
    SchemaCase("enum compares numbers by value", ["enum": [1, 2]], 1.0),
    SchemaCase(
        "enum fails", ["enum": ["red", "green"]], "blue", [#"$: expected one of "red", "green", got "blue""#]),
    SchemaCase("const passes", ["const": ["a": [1, 2]]], ["a": [1, 2.0]]),
    SchemaCase("const fails", ["const": "x"], "y", [#"$: expected "x", got "y""#]),
    // anyOf and oneOf
    SchemaCase("anyOf passes", ["anyOf": [["type": "string"], ["type": "null"]]], nil),
    SchemaCase(
        "anyOf fails listing each alternative", ["anyOf": [["type": "string"], ["type": "null"]]], 5,
        ["$: does not match any alternative of anyOf: [0] expected string, got integer 5; [1] expected null, got integer 5"]),
    SchemaCase(
        "anyOf names nested paths", ["anyOf": [["required": ["a"]], ["properties": ["b": ["type": "string"]]]]],
        ["b": 1],
        ["$: does not match any alternative of anyOf: [0] missing required key 'a'; [1] $.b: expected string, got integer 1"]),
    SchemaCase("oneOf passes with exactly one", ["oneOf": [["type": "integer"], ["type": "string"]]], 3),
    SchemaCase(
        "oneOf fails with two", ["oneOf": [["type": "integer"], ["type": "number"]]], 3,
        ["$: matches 2 alternatives of oneOf ([0], [1]); exactly one must match"]),
    SchemaCase(
        "oneOf fails with none", ["oneOf": [["type": "integer"], ["type": "string"]]], true,
        ["$: does not match any alternative of oneOf: [0] expected integer, got boolean true; [1] expected string, got boolean true"]),
    // pattern
    SchemaCase("pattern passes", ["pattern": "^[0-9]{3}$"], "123"),
    SchemaCase("pattern is unanchored", ["pattern": "b"], "abc"),
    SchemaCase(
        "pattern fails", ["pattern": "^[0-9]{3}$"], "12a", [#"$: "12a" does not match pattern '^[0-9]{3}$'"#]),
    SchemaCase(
        "pattern \\d is ASCII only as in ECMA-262", ["pattern": "^\\d+$"], "١٢",
        [#"$: "١٢" does not match pattern '^\d+$'"#]),
    SchemaCase("pattern ignores non-strings", ["pattern": "^a$"], 5),
    // numeric limits
    SchemaCase("minimum passes at the limit", ["minimum": 0], 0),
    SchemaCase("minimum fails", ["minimum": 0], -1, ["$: must be >= 0, got -1"]),
    SchemaCase("maximum passes", ["maximum": 10], 9.5),
    SchemaCase("maximum fails", ["maximum": 10], 10.5, ["$: must be <= 10, got 10.5"]),
    SchemaCase("exclusiveMinimum passes", ["exclusiveMinimum": 0], 0.1),
    SchemaCase("exclusiveMinimum fails at the limit", ["exclusiveMinimum": 0], 0, ["$: must be > 0, got 0"]),
    SchemaCase("exclusiveMaximum passes", ["exclusiveMaximum": 1], 0.99),
    SchemaCase("exclusiveMaximum fails at the limit", ["exclusiveMaximum": 1], 1.0, ["$: must be < 1, got 1"]),
    SchemaCase("numeric limits ignore strings", ["minimum": 5], "3"),
    // array and string sizes
    SchemaCase("minItems passes", ["minItems": 2], [1, 2]),
    SchemaCase("minItems fails", ["minItems": 2], [1], ["$: expected at least 2 items, got 1"]),
    SchemaCase("maxItems passes", ["maxItems": 2], [1, 2]),
    SchemaCase("maxItems fails", ["maxItems": 2], [1, 2, 3], ["$: expected at most 2 items, got 3"]),
    SchemaCase("minLength passes", ["minLength": 2], "ab"),
    SchemaCase("minLength fails", ["minLength": 2], "a", ["$: expected at least 2 characters, got 1"]),
    SchemaCase("maxLength counts a precomposed é once", ["maxLength": 1], "\u{E9}"),
    SchemaCase(
        "maxLength counts code points, not graphemes", ["maxLength": 1], "e\u{301}",
        ["$: expected at most 1 character, got 2"]),
    // annotations
    SchemaCase(
        "annotations are allowed and ignored",
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "T", "description": "D",
            "default": 3, "type": "integer",
        ], 7),
    // $defs and $ref
    SchemaCase(
        "$ref to a definition fails inside",
        ["$defs": ["name": ["type": "string"]], "properties": ["n": ["$ref": "#/$defs/name"]]], ["n": 1],
        ["$.n: expected string, got integer 1"]),
    SchemaCase("recursive $ref passes", treeSchema, ["v": 1, "children": [["v": 2, "children": []]]]),
    SchemaCase(
        "recursive $ref reports deep paths", treeSchema, ["v": 1, "children": [["children": [["v": "x"]]]]],
        [#"$.children[0].children[0].v: expected integer, got string "x""#]),
    // boolean schemas
    SchemaCase("true schema accepts anything", ["properties": ["a": true]], ["a": [1, "x"]]),
    SchemaCase(
        "false schema rejects", ["properties": ["a": false]], ["a": 1],
        ["$.a: no value is allowed here (the schema is false)"]),
    // several problems at once
    SchemaCase(
        "every violation is reported in a stable order",
        ["type": "object", "required": ["id", "title"], "properties": ["tags": ["maxItems": 1, "items": ["type": "string"]]]],
        ["tags": [1, "b"]],
        [
            "$: missing required key 'id'", "$: missing required key 'title'",
            "$.tags: expected at most 1 item, got 2", "$.tags[0]: expected string, got integer 1",
        ]),
]

@Suite struct JSONSchemaValidationTests {
    @Test(arguments: schemaCases)
    func validates(_ c: SchemaCase) throws {
        let schema = try JSONSchema(c.schema)
        let violations = schema.validate(c.instance)
        #expect(violations.map(\.description) == c.expected)
        #expect(schema.isValid(c.instance) == c.expected.isEmpty)
    }

    @Test func violationsNameTheFailingKeyword() throws {
        let schema = try JSONSchema(["properties": ["age": ["type": "integer", "minimum": 0]], "required": ["name"]])
        let violations = schema.validate(["age": -1.5])
        #expect(violations.map(\.keyword) == ["required", "type", "minimum"])
        #expect(violations.map(\.path) == ["$", "$.age", "$.age"])
    }
}

/// A schema that must be rejected, with the exact path of the offending keyword.
struct BadSchemaCase: Sendable, CustomTestStringConvertible {
    var name: String
    var schema: JSONValue
    var path: String
    var messagePrefix: String
    var testDescription: String { name }

    init(_ name: String, _ schema: JSONValue, _ path: String, _ messagePrefix: String) {
        self.name = name
        self.schema = schema
        self.path = path
        self.messagePrefix = messagePrefix
    }
}

let badSchemaCases: [BadSchemaCase] = [
    BadSchemaCase(
        "unsupported keyword deep inside",
        ["properties": ["items": ["type": "array", "items": ["unevaluatedProperties": false]]]],
        "properties.items.items.unevaluatedProperties",
        "keyword 'unevaluatedProperties' is not supported (supported: type, enum, const, nullable, properties,"),
    BadSchemaCase("unsupported keyword at the root", ["$dynamicRef": "#x"], "$dynamicRef", "keyword '$dynamicRef' is not supported"),
    BadSchemaCase(
        "unsupported keyword under a non-identifier key", ["properties": ["first name": ["minproperties": 1]]],
        #"properties["first name"].minproperties"#, "keyword 'minproperties' is not supported"),
    BadSchemaCase(
        "unsupported keyword inside anyOf", ["anyOf": [["type": "string"], ["dependencies": [:]]]], "anyOf[1].dependencies",
        "keyword 'dependencies' is not supported"),
    BadSchemaCase(
        "unsupported keyword inside $defs", ["$defs": ["a": ["unevaluatedItems": true]]], "$defs.a.unevaluatedItems",
        "keyword 'unevaluatedItems' is not supported"),
    BadSchemaCase(
        "additionalItems without tuple items", ["items": true, "additionalItems": false], "additionalItems",
        "keyword 'additionalItems' is not supported"),
    BadSchemaCase(
        "tuple items next to prefixItems", ["items": [true], "prefixItems": [true]], "items",
        "invalid value for 'items': the array (tuple) form cannot be combined with 'prefixItems'"),
    BadSchemaCase("multipleOf zero", ["multipleOf": 0], "multipleOf", "invalid value for 'multipleOf': expected a number greater than 0"),
    BadSchemaCase("nested $id", ["properties": ["a": ["$id": "x"]]], "properties.a.$id", "invalid value for '$id': '$id' is only supported at the root"),
    BadSchemaCase("bad uniqueItems", ["uniqueItems": "yes"], "uniqueItems", "invalid value for 'uniqueItems': expected true or false"),
    BadSchemaCase(
        "invalid patternProperties key", ["patternProperties": ["[a-": true]], #"patternProperties["[a-"]"#,
        "invalid regular expression '[a-': "),
    BadSchemaCase(
        "dependentRequired with a number", ["dependentRequired": ["a": [1]]], "dependentRequired",
        "invalid value for 'dependentRequired': 'a': element [0] is integer, expected a string"),
    BadSchemaCase(
        "minContains above maxContains", ["contains": true, "minContains": 2, "maxContains": 1], "minContains",
        "invalid value for 'minContains': minContains (2) is greater than maxContains (1)"),
    BadSchemaCase("remote $ref", ["$ref": "https://example.com/s.json"], "$ref", "cannot resolve $ref 'https://example.com/s.json': only references inside this schema"),
    BadSchemaCase("unknown anchor", ["$ref": "#nope"], "$ref", #"cannot resolve $ref '#nope': no "$anchor": "nope" in the schema"#),
    BadSchemaCase("Gemini TYPE_UNSPECIFIED", ["type": "TYPE_UNSPECIFIED"], "type", "invalid value for 'type': \"TYPE_UNSPECIFIED\" is not a type"),
    BadSchemaCase("count as a non-numeric string", ["minItems": "two"], "minItems", "invalid value for 'minItems': expected a non-negative integer"),
    BadSchemaCase(
        "invalid pattern", ["properties": ["code": ["pattern": "[a-"]]], "properties.code.pattern",
        "invalid regular expression '[a-': "),
    BadSchemaCase(
        "lookbehind is not supported by Swift Regex", ["pattern": "(?<=a)b"], "pattern",
        "invalid regular expression '(?<=a)b': "),
    BadSchemaCase("unknown type name", ["type": "float"], "type", #"invalid value for 'type': "float" is not a type"#),
    BadSchemaCase("duplicate type", ["type": ["string", "string"]], "type", "invalid value for 'type': 'string' is listed twice"),
    BadSchemaCase(
        "draft-04 boolean exclusiveMinimum", ["exclusiveMinimum": true], "exclusiveMinimum",
        "invalid value for 'exclusiveMinimum': expected a number, got boolean"),
    BadSchemaCase(
        "negative minLength", ["properties": ["a": ["minLength": -1]]], "properties.a.minLength",
        "invalid value for 'minLength': expected a non-negative integer, got -1"),
    BadSchemaCase(
        "minimum above maximum", ["minimum": 5, "maximum": 1], "minimum",
        "invalid value for 'minimum': minimum (5) is greater than maximum (1)"),
    BadSchemaCase(
        "minItems above maxItems", ["minItems": 3, "maxItems": 1], "minItems",
        "invalid value for 'minItems': minItems (3) is greater than maxItems (1)"),
    BadSchemaCase("empty enum", ["enum": []], "enum", "invalid value for 'enum': expected a non-empty array"),
    BadSchemaCase(
        "required with a number", ["required": ["a", 1]], "required",
        "invalid value for 'required': element [1] is integer, expected a string"),
    BadSchemaCase("non-string title", ["title": 3], "title", "invalid value for 'title': expected a string"),
    BadSchemaCase(
        "schema that is a number", ["properties": ["a": 5]], "properties.a",
        "expected a schema (an object or a boolean), got integer"),
    BadSchemaCase(
        "draft-07 definitions reference to nothing", ["$ref": "#/definitions/x"], "$ref",
        "cannot resolve $ref '#/definitions/x': nothing at that location in the schema"),
    BadSchemaCase(
        "missing definition", ["$defs": ["a": true], "properties": ["x": ["$ref": "#/$defs/b"]]], "properties.x.$ref",
        "cannot resolve $ref '#/$defs/b': nothing at that location in the schema (have: a)"),
    BadSchemaCase(
        "reference cycle through allOf and not",
        ["$defs": ["a": ["allOf": [["not": ["$ref": "#/$defs/a"]]]]], "$ref": "#/$defs/a"],
        "$defs.a", "$ref cycle that never reaches a value: #/$defs/a → #/$defs/a"),
    BadSchemaCase(
        "reference cycle through anyOf",
        ["$defs": ["a": ["$ref": "#/$defs/b"], "b": ["anyOf": [["$ref": "#/$defs/a"]]]], "$ref": "#/$defs/a"],
        "$defs.a", "$ref cycle that never reaches a value: #/$defs/a → #/$defs/b → #/$defs/a"),
    BadSchemaCase("root referring to itself", ["$ref": "#"], "$", "$ref cycle that never reaches a value: # → #"),
]

@Suite struct JSONSchemaParsingTests {
    @Test(arguments: badSchemaCases)
    func rejects(_ c: BadSchemaCase) {
        #expect {
            _ = try JSONSchema(c.schema)
        } throws: { error in
            guard let error = error as? SchemaError else { return false }
            return error.path == c.path && error.message.hasPrefix(c.messagePrefix)
                && error.description == "\(c.path): \(error.message)"
        }
    }

    @Test func unsupportedKeywordErrorHasTheExactPathAndList() {
        let schema: JSONValue = ["properties": ["items": ["items": ["unevaluatedProperties": false]]]]
        do {
            _ = try JSONSchema(schema)
            Issue.record("expected an error")
        } catch {
            #expect(error == .unsupportedKeyword(path: "properties.items.items.unevaluatedProperties", keyword: "unevaluatedProperties"))
            #expect(
                error.description
                    == "properties.items.items.unevaluatedProperties: keyword 'unevaluatedProperties' is not supported (supported: "
                    + JSONSchema.supportedKeywords.joined(separator: ", ")
                    + "); list the allowed keys under 'properties' and set 'additionalProperties': false")
        }
    }

    @Test func invalidPatternReportsPathAndPattern() {
        do {
            _ = try JSONSchema(["items": ["pattern": "(unclosed"]])
            Issue.record("expected an error")
        } catch {
            guard case .invalidPattern(let path, let pattern, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "items.pattern")
            #expect(pattern == "(unclosed")
            #expect(!reason.isEmpty)
        }
    }

    @Test func everySupportedKeywordIsAccepted() throws {
        let schema: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/s.json",
            "$anchor": "top", "$comment": "c", "$defs": ["s": ["type": "string"], "any": true],
            "definitions": ["old": true],
            "$ref": "#/$defs/any", "title": "t", "description": "d", "default": nil, "examples": [1], "example": 1,
            "deprecated": false, "readOnly": false, "writeOnly": false, "propertyOrdering": ["a"], "x-order": ["a"],
            "contentMediaType": "application/json", "contentEncoding": "base64",
            "type": ["object", "array", "string", "number"], "nullable": true,
            "properties": ["a": ["$ref": "#/$defs/s"]], "required": [], "additionalProperties": true,
            "patternProperties": ["^x": true], "propertyNames": true, "minProperties": 0, "maxProperties": 3,
            "dependentRequired": ["a": []], "dependentSchemas": ["a": true],
            "items": true, "prefixItems": [true], "contains": true, "minContains": 0, "maxContains": 2,
            "uniqueItems": false,
            "enum": [1, "x", ["a": "b"]], "const": 1, "allOf": [true], "anyOf": [true], "oneOf": [true], "not": false,
            "if": true, "then": true, "else": true,
            "pattern": "x", "format": "date", "minimum": 0, "maximum": 2, "exclusiveMinimum": -1, "exclusiveMaximum": 3,
            "multipleOf": 1, "minItems": 0, "maxItems": 1, "minLength": 0, "maxLength": 1,
        ]
        // additionalItems is the one keyword that needs tuple-form items; it is covered in the keyword tests.
        #expect(Set(schema.objectValue?.keys.map { $0 } ?? []) == Set(JSONSchema.supportedKeywords).subtracting(["additionalItems"]))
        let parsed = try JSONSchema(schema)
        #expect(parsed.isValid(1))
        #expect(!parsed.isValid(2))
    }

    @Test func equalityFollowsTheSource() throws {
        #expect(try JSONSchema(["type": "string"]) == JSONSchema(["type": "string"]))
        #expect(try JSONSchema(["type": "string"]) != JSONSchema(["type": "integer"]))
    }
}

@Suite struct JSONSchemaCodableTests {
    struct Holder: Decodable {
        var schema: JSONSchema
    }

    @Test func decodesAndRoundTrips() throws {
        let json = #"{"schema": {"type": "object", "required": ["title"]}}"#
        let holder = try JSONDecoder().decode(Holder.self, from: Data(json.utf8))
        #expect(holder.schema.source == ["type": "object", "required": ["title"]])
        let again = try JSONDecoder().decode(JSONSchema.self, from: JSONEncoder().encode(holder.schema))
        #expect(again == holder.schema)
    }

    @Test func decodingAnUnsupportedSchemaFailsWithItsPath() {
        let json = #"{"schema": {"properties": {"when": {"unevaluatedItems": false}}}}"#
        #expect {
            _ = try JSONDecoder().decode(Holder.self, from: Data(json.utf8))
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.debugDescription.hasPrefix(
                "invalid JSON Schema: properties.when.unevaluatedItems: keyword 'unevaluatedItems' is not supported")
                && context.codingPath.map(\.stringValue) == ["schema"]
        }
    }
}
