@testable import HybridCore
@testable import HybridValidation
import Testing

/// A schema, an instance and whether it conforms; for cases where the verdict, not the message, is the point.
struct VerdictCase: Sendable, CustomTestStringConvertible {
    var name: String
    var schema: JSONValue
    var instance: JSONValue
    var valid: Bool
    var testDescription: String { name }

    init(_ name: String, _ schema: JSONValue, _ instance: JSONValue, _ valid: Bool) {
        self.name = name
        self.schema = schema
        self.instance = instance
        self.valid = valid
    }
}

let recursiveTree: JSONValue = [
    "type": "object",
    "properties": ["v": ["type": "integer"], "children": ["type": "array", "items": ["$ref": "#"]]],
    "required": ["v"],
]

let verdictCases: [VerdictCase] = [
    // Unicode: lengths count code points; equality compares code points, not canonical equivalence.
    VerdictCase("an emoji is one code point (two UTF-16 units)", ["maxLength": 1], "\u{1F600}", true),
    VerdictCase("e + combining accent is two code points", ["minLength": 2], "e\u{301}", true),
    VerdictCase("a flag is two code points", ["maxLength": 1], "\u{1F1EB}\u{1F1F7}", false),
    VerdictCase("const é does not equal e + U+0301", ["const": "\u{E9}"], "e\u{301}", false),
    VerdictCase("enum é does not equal e + U+0301", ["enum": ["\u{E9}"]], "e\u{301}", false),
    VerdictCase("uniqueItems tells é from e + U+0301", ["uniqueItems": true], ["\u{E9}", "e\u{301}"], true),
    VerdictCase("required é is missing when only e + U+0301 is there", ["required": ["\u{E9}"]], ["e\u{301}": 1], false),
    VerdictCase(
        "properties é does not apply to e + U+0301", ["properties": ["\u{E9}": false]], ["e\u{301}": 1], true),
    VerdictCase("pattern . matches one code point", ["pattern": "^.$"], "\u{1F600}", true),
    // Numbers: integers, exact comparison beyond 2^53, decimal multipleOf.
    VerdictCase("1.0 is an integer", ["type": "integer"], 1.0, true),
    VerdictCase("1.5 is not an integer", ["type": "integer"], 1.5, false),
    VerdictCase("1e300 is an integer", ["type": "integer"], 1e300, true),
    VerdictCase("true is not a number", ["type": "number"], true, false),
    VerdictCase("true is not 1", ["const": 1], true, false),
    VerdictCase("1.0 equals 1 in enum", ["enum": [1]], 1.0, true),
    VerdictCase("0.07 is a multiple of 0.01", ["multipleOf": 0.01], 0.07, true),
    VerdictCase("19.99 is a multiple of 0.01", ["multipleOf": 0.01], 19.99, true),
    VerdictCase("0.3 is a multiple of 0.1", ["multipleOf": 0.1], 0.3, true),
    VerdictCase("0.075 is not a multiple of 0.01", ["multipleOf": 0.01], 0.075, false),
    VerdictCase("3e-8 is a multiple of 1e-8", ["multipleOf": 1e-8], 3e-8, true),
    VerdictCase("3 is a multiple of 0.5", ["multipleOf": 0.5], 3, true),
    VerdictCase("1e20 is not a multiple of 3", ["multipleOf": 3], 1e20, false),
    VerdictCase("1e20 is a multiple of 0.25", ["multipleOf": 0.25], 1e20, true),
    VerdictCase("2^53 + 1 is odd", ["multipleOf": 2], 9_007_199_254_740_993, false),
    VerdictCase("0 is a multiple of anything", ["multipleOf": 0.3], 0, true),
    VerdictCase("-0.06 is a multiple of 0.02", ["multipleOf": 0.02], -0.06, true),
    VerdictCase("minimum compares above 2^53 exactly", ["minimum": 9_007_199_254_740_993], 9_007_199_254_740_992, false),
    VerdictCase("minimum at 2^53 + 1 itself", ["minimum": 9_007_199_254_740_993], 9_007_199_254_740_993, true),
    VerdictCase(
        "exclusiveMaximum int against a double", ["exclusiveMaximum": 9_007_199_254_740_993], 9_007_199_254_740_992.0, true),
    VerdictCase("maximum 0.1 holds 0.1", ["maximum": 0.1], 0.1, true),
    VerdictCase("uniqueItems: 1 and 1.0 are equal", ["uniqueItems": true], [1, 1.0], false),
    VerdictCase("uniqueItems: 1 and true differ", ["uniqueItems": true], [1, true], true),
    VerdictCase("uniqueItems compares objects by value", ["uniqueItems": true], [["a": 1], ["a": 1.0]], false),
    // $ref: recursion through the root, draft-07 definitions, anchors, escaped pointers, the root $id.
    VerdictCase("recursive tree passes", recursiveTree, ["v": 1, "children": [["v": 2, "children": [["v": 3]]]]], true),
    VerdictCase("recursive tree fails three levels down", recursiveTree, ["v": 1, "children": [["v": 2, "children": [["v": "x"]]]]], false),
    VerdictCase(
        "draft-07 definitions", ["definitions": ["n": ["type": "integer"]], "items": ["$ref": "#/definitions/n"]], [1, "x"], false),
    VerdictCase(
        "anchor", ["$defs": ["n": ["$anchor": "num", "type": "number"]], "properties": ["a": ["$ref": "#num"]]], ["a": "x"], false),
    VerdictCase(
        "escaped pointer tokens", ["$defs": ["a/b": ["type": "string"], "c d": ["minimum": 3]], "allOf": [["$ref": "#/$defs/a~1b"], ["$ref": "#/$defs/c%20d"]]],
        "text", true),
    VerdictCase(
        "root $id prefix", ["$id": "https://example.com/s.json", "$defs": ["s": ["type": "string"]], "$ref": "https://example.com/s.json#/$defs/s"],
        5, false),
    VerdictCase(
        "mutual recursion through $defs",
        ["$defs": ["a": ["properties": ["b": ["$ref": "#/$defs/b"]]], "b": ["type": "object", "properties": ["a": ["$ref": "#/$defs/a"]]]], "$ref": "#/$defs/a"],
        ["b": ["a": ["b": 3]]], false),
    VerdictCase("pointer into properties", ["properties": ["a": ["type": "string"], "b": ["$ref": "#/properties/a"]]], ["b": 1], false),
    // format: asserted for the documented formats, an annotation for the rest.
    VerdictCase("date-time", ["format": "date-time"], "2026-11-22T19:36:21.5+01:00", true),
    VerdictCase("date-time lower-case t and z", ["format": "date-time"], "2026-11-22t19:36:21z", true),
    VerdictCase("date-time without offset", ["format": "date-time"], "2026-11-22T19:36:21", false),
    VerdictCase("date in a leap year", ["format": "date"], "2024-02-29", true),
    VerdictCase("date outside a leap year", ["format": "date"], "2025-02-29", false),
    VerdictCase("date with a one-digit month", ["format": "date"], "2025-2-01", false),
    VerdictCase("time", ["format": "time"], "23:59:60Z", true),
    VerdictCase("time hour 24", ["format": "time"], "24:00:00Z", false),
    VerdictCase("email", ["format": "email"], "first.last+tag@example.co.uk", true),
    VerdictCase("email without domain", ["format": "email"], "someone@", false),
    VerdictCase("email with two dots", ["format": "email"], "a..b@example.com", false),
    VerdictCase("email with an IP literal", ["format": "email"], "a@[192.168.0.1]", true),
    VerdictCase("uuid", ["format": "uuid"], "123e4567-e89b-12d3-a456-426614174000", true),
    VerdictCase("uuid with a bad group", ["format": "uuid"], "123e4567-e89b-12d3-a456-42661417400", false),
    VerdictCase("ipv4", ["format": "ipv4"], "192.168.0.1", true),
    VerdictCase("ipv4 leading zero", ["format": "ipv4"], "192.168.00.1", false),
    VerdictCase("ipv4 over 255", ["format": "ipv4"], "256.1.1.1", false),
    VerdictCase("ipv6 compressed", ["format": "ipv6"], "2001:db8::1", true),
    VerdictCase("ipv6 with an IPv4 tail", ["format": "ipv6"], "::ffff:192.0.2.1", true),
    VerdictCase("ipv6 with two ::", ["format": "ipv6"], "1::2::3", false),
    VerdictCase("ipv6 with nine groups", ["format": "ipv6"], "1:2:3:4:5:6:7:8:9", false),
    VerdictCase("hostname", ["format": "hostname"], "api.example.com", true),
    VerdictCase("hostname with a leading hyphen", ["format": "hostname"], "-bad.example.com", false),
    VerdictCase("uri", ["format": "uri"], "https://example.com/a?b=c#d", true),
    VerdictCase("uri relative", ["format": "uri"], "/a/b", false),
    VerdictCase("uri with a space", ["format": "uri"], "https://example.com/a b", false),
    VerdictCase("duration", ["format": "duration"], "P1Y2M3DT4H5M6.5S", true),
    VerdictCase("duration weeks", ["format": "duration"], "P2W", true),
    VerdictCase("duration with an empty time part", ["format": "duration"], "P1DT", false),
    VerdictCase("duration with nothing", ["format": "duration"], "P", false),
    VerdictCase("format ignores non-strings", ["format": "email"], 5, true),
    VerdictCase("unknown formats are annotations", ["format": "int32"], "not a number", true),
    // Provider dialects.
    VerdictCase("Gemini nullable admits null", ["type": "string", "nullable": true], nil, true),
    VerdictCase("Gemini nullable without type adds nothing", ["nullable": true, "enum": ["a"]], nil, false),
    VerdictCase("Gemini upper-case types", ["type": "OBJECT", "properties": ["n": ["type": "INTEGER"]]], ["n": 1.5], false),
    VerdictCase("Gemini counts as strings", ["type": "ARRAY", "minItems": "2", "maxItems": "3"], [1], false),
    VerdictCase("Gemini propertyOrdering is an annotation", ["propertyOrdering": ["b", "a"], "required": ["a"]], ["a": 1, "b": 2], true),
    VerdictCase("draft 2019-09 tuple items", ["items": [["type": "string"], ["type": "integer"]], "additionalItems": false], ["a", 1], true),
    VerdictCase("draft 2019-09 additionalItems false", ["items": [["type": "string"]], "additionalItems": false], ["a", 1], false),
    VerdictCase("x- extensions are ignored", ["x-anything": ["type": "string"], "type": "integer"], 3, true),
    VerdictCase(
        "annotations are no-ops",
        ["examples": ["x"], "$comment": "c", "deprecated": true, "readOnly": true, "example": 1, "default": "d", "type": "integer"], 2, true),
]

/// Exact messages for the keywords added for provider schemas.
let keywordCases: [SchemaCase] = [
    SchemaCase(
        "items after prefixItems", ["prefixItems": [["type": "string"]], "items": ["type": "integer"]], ["a", 1, "b"],
        [#"$[2]: expected integer, got string "b""#]),
    SchemaCase(
        "allOf reports every branch", ["allOf": [["minLength": 3], ["pattern": "^x"]]], "ab",
        ["$: expected at least 3 characters, got 2", #"$: "ab" does not match pattern '^x'"#]),
    SchemaCase("not", ["not": ["type": "string"]], "x", ["$: must not match the schema under 'not'"]),
    SchemaCase(
        "if/then", ["if": ["properties": ["kind": ["const": "a"]]], "then": ["required": ["x"]], "else": ["required": ["y"]]],
        ["kind": "a"], ["$: missing required key 'x'"]),
    SchemaCase(
        "if/else", ["if": ["properties": ["kind": ["const": "a"]]], "then": ["required": ["x"]], "else": ["required": ["y"]]],
        ["kind": "b"], ["$: missing required key 'y'"]),
    SchemaCase("uniqueItems", ["uniqueItems": true], [1, 2, 1.0], ["$: items [0] and [2] are equal (1); items must be unique"]),
    SchemaCase("multipleOf", ["multipleOf": 0.01], 0.075, ["$: must be a multiple of 0.01, got 0.075"]),
    SchemaCase(
        "patternProperties and additionalProperties",
        ["properties": ["id": true], "patternProperties": ["^x-": ["type": "string"]], "additionalProperties": false],
        ["id": 1, "x-a": 2, "other": 3],
        ["$.other: unexpected key 'other' (additionalProperties is false; allowed: 'id')", "$[\"x-a\"]: expected string, got integer 2"]),
    SchemaCase(
        "propertyNames", ["propertyNames": ["maxLength": 1]], ["a": 1, "abc": 2],
        ["$: property name 'abc': expected at most 1 character, got 3"]),
    SchemaCase("minProperties", ["minProperties": 2], ["a": 1], ["$: expected at least 2 keys, got 1"]),
    SchemaCase("maxProperties", ["maxProperties": 1], ["a": 1, "b": 2], ["$: expected at most 1 key, got 2"]),
    SchemaCase(
        "dependentRequired", ["dependentRequired": ["card": ["billing"]]], ["card": "x"],
        ["$: missing key 'billing', required when 'card' is present"]),
    SchemaCase(
        "dependentSchemas", ["dependentSchemas": ["card": ["required": ["billing"]]]], ["card": "x"],
        ["$: missing required key 'billing'"]),
    SchemaCase("contains", ["contains": ["type": "integer"]], ["a", "b"], ["$: no item matches the 'contains' schema"]),
    SchemaCase(
        "minContains", ["contains": ["type": "integer"], "minContains": 2], [1, "b"],
        ["$: expected at least 2 items matching 'contains', got 1"]),
    SchemaCase(
        "maxContains", ["contains": ["type": "integer"], "maxContains": 1], [1, 2],
        ["$: expected at most 1 item matching 'contains', got 2"]),
    SchemaCase("minContains 0 accepts none", ["contains": ["type": "integer"], "minContains": 0], ["a"]),
    SchemaCase("format", ["properties": ["when": ["format": "date"]]], ["when": "2025-13-01"], [#"$.when: "2025-13-01" is not a valid date"#]),
    SchemaCase("nullable in the type message", ["type": "string", "nullable": true], 5, ["$: expected string or null, got integer 5"]),
]

@Suite struct JSONSchemaKeywordTests {
    @Test(arguments: verdictCases)
    func verdict(_ c: VerdictCase) throws {
        let schema = try JSONSchema(c.schema)
        #expect(schema.isValid(c.instance) == c.valid, "\(schema.validate(c.instance))")
    }

    @Test(arguments: keywordCases)
    func messages(_ c: SchemaCase) throws {
        let schema = try JSONSchema(c.schema)
        #expect(schema.validate(c.instance).map(\.description) == c.expected)
    }

    /// Schemas as the three providers' docs write them are accepted unchanged and judge outputs.
    @Test func providerSchemasAreAccepted() throws {
        let openAIStrict: JSONValue = [
            "type": "object",
            "properties": [
                "name": ["type": "string", "description": "Full name"],
                "age": ["type": ["integer", "null"], "minimum": 0],
                "email": ["type": "string", "format": "email"],
                "tags": ["type": "array", "items": ["type": "string"], "minItems": 1],
                "price": ["type": "number", "multipleOf": 0.01],
                "kind": ["anyOf": [["const": "a"], ["const": "b"]]],
                "child": ["anyOf": [["$ref": "#"], ["type": "null"]]],
            ],
            "required": ["name", "age", "email", "tags", "price", "kind", "child"],
            "additionalProperties": false,
        ]
        let gemini: JSONValue = [
            "type": "OBJECT",
            "properties": [
                "recipe": ["type": "STRING", "description": "name"],
                "minutes": ["type": "INTEGER", "format": "int32", "nullable": true],
                "steps": ["type": "ARRAY", "items": ["type": "STRING"], "maxItems": "5"],
            ],
            "required": ["recipe", "steps"],
            "propertyOrdering": ["recipe", "minutes", "steps"],
        ]
        // Foundation Models' GenerationSchema encodes @Generable / @Guide as JSON Schema with x-order and $defs.
        let foundationModels: JSONValue = [
            "title": "Cat", "type": "object", "x-order": ["name", "age", "food", "friend"],
            "additionalProperties": false,
            "properties": [
                "name": ["type": "string", "pattern": "^[A-Z]"],
                "age": ["type": "integer", "minimum": 0, "maximum": 20],
                "food": ["type": "string", "enum": ["fish", "chicken"]],
                "friend": ["$ref": "#/$defs/Dog"],
            ],
            "required": ["name", "age", "food"],
            "$defs": ["Dog": ["type": "object", "properties": ["name": ["type": "string"]], "required": ["name"]]],
        ]
        let openAI = try JSONSchema(openAIStrict)
        #expect(openAI.isValid([
            "name": "Ada", "age": nil, "email": "ada@example.com", "tags": ["x"], "price": 19.99, "kind": "a",
            "child": ["name": "B", "age": 3, "email": "b@example.com", "tags": ["y"], "price": 1, "kind": "b", "child": nil],
        ]))
        #expect(!openAI.isValid([
            "name": "Ada", "age": nil, "email": "ada", "tags": ["x"], "price": 19.999, "kind": "c", "child": nil,
        ]))
        let geminiSchema = try JSONSchema(gemini)
        #expect(geminiSchema.isValid(["recipe": "Soup", "minutes": nil, "steps": ["boil"]]))
        #expect(!geminiSchema.isValid(["recipe": "Soup", "minutes": 1.5, "steps": ["a", "b", "c", "d", "e", "f"]]))
        let cat = try JSONSchema(foundationModels)
        #expect(cat.isValid(["name": "Tom", "age": 3, "food": "fish", "friend": ["name": "Rex"]]))
        #expect(cat.validate(["name": "tom", "age": 30, "food": "fish", "friend": [:]]).map(\.keyword) == [
            "maximum", "required", "pattern",
        ])
    }
}
