@testable import HybridCore
@testable import HybridValidation
import Testing

@Suite struct StructuredOutputCheckTests {
    let schema = try! JSONSchema([
        "type": "object", "required": ["title"], "properties": ["title": ["type": "string"], "n": ["type": "integer"]],
    ])

    @Test func stripsAJSONFenceAndSaysSo() {
        let result = StructuredOutputCheck(schema: schema).check("```json\n{\"title\": \"A\", \"n\": 3}\n```\n")
        #expect(result.strippedCodeFence)
        #expect(result.value == ["title": "A", "n": 3])
        #expect(result.passed)
        #expect(result.checks.map(\.name) == ["json_parses", "schema_valid"])
        #expect(result.checks.allSatisfy { $0.passed })
        #expect(result.checks[0].message == "parsed after stripping a code fence")
    }

    @Test(arguments: [
        ("```\n[1]\n```", true, true),
        ("```JSON\n[1]\n```", true, true),
        ("  [1]  ", false, true),
        ("```python\n[1]\n```", false, false),
    ])
    func fenceStripping(text: String, stripped: Bool, parses: Bool) {
        let result = StructuredOutputCheck(schema: nil).check(text)
        #expect(result.strippedCodeFence == stripped)
        #expect(result.parsesAsJSON == parses)
        #expect(result.value == (parses ? [1] : nil))
    }

    @Test func invalidJSONIsOneViolationAtTheRoot() {
        let result = StructuredOutputCheck(schema: schema).check("{\"title\": \"A\",\n \"n\": }")
        #expect(result.value == nil)
        #expect(
            result.violations == [
                SchemaViolation(
                    path: "$", keyword: "json",
                    message: "output is not valid JSON: unexpected character '}', expected a value at line 2, column 7")
            ])
        #expect(result.checks.map(\.passed) == [false, false])
        #expect(result.checks[1].message == "not checked: the output is not valid JSON")
    }

    @Test func proseAroundJSONIsNotJSON() {
        let result = StructuredOutputCheck(schema: nil).check("Here you go:\n```json\n{}\n```")
        #expect(!result.strippedCodeFence)
        #expect(!result.parsesAsJSON)
        #expect(result.checks.map(\.name) == ["json_parses"])
    }

    @Test func schemaViolationsAreReportedSeparatelyFromParsing() {
        let result = StructuredOutputCheck(schema: schema).check(#"{"n": "3"}"#)
        #expect(result.parsesAsJSON)
        #expect(!result.passed)
        #expect(
            result.violations.map(\.description)
                == ["$: missing required key 'title'", #"$.n: expected integer, got string "3""#])
        #expect(result.checks.map(\.passed) == [true, false])
        #expect(result.checks[1].observed == 2)
    }

    @Test(arguments: [
        (#"{"a": 1, "b": 2.5, "c": -0, "d": 1e2}"#, ["a": 1, "b": 2.5, "c": 0, "d": 100.0]),
        (#""\u00e9\ud83d\ude00\n""#, "é😀\n"),
        ("[true, false, null]", [true, false, nil]),
        ("99999999999999999999", JSONValue.double(1e20)),
        (#""Zürich""#, "Zürich"),
    ] as [(String, JSONValue)])
    func parsesValues(text: String, expected: JSONValue) {
        #expect(StructuredOutputCheck(schema: nil).check(text).value == expected)
    }

    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, "duplicate object key \"a\" at line 1, column 10"),
        ("[1, 2,]", "unexpected character ']', expected a value at line 1, column 7"),
        ("01", "invalid number: leading zero at line 1, column 1"),
        ("{} {}", "unexpected character '{' after the end of the JSON value at line 1, column 4"),
        (#""\ud800""#, "unpaired UTF-16 surrogate in \\u escape at line 1, column 8"),
        ("", "unexpected end of text, expected a value at line 1, column 1"),
        (String(repeating: "[", count: 300), "nesting deeper than 256 levels at line 1, column 257"),
    ])
    func rejectsMalformedJSON(text: String, reason: String) {
        let result = StructuredOutputCheck(schema: nil).check(text)
        #expect(result.violations.map(\.message) == ["output is not valid JSON: \(reason)"])
    }
}
