/// Checks a model's raw text against an expected JSON shape: strip a Markdown code fence, parse, validate.
///
/// The steps are reported separately (``StructuredOutputResult/checks``) so a report can tell "not JSON at all"
/// apart from "JSON of the wrong shape". Only a fence around the whole output is stripped; prose around the JSON
/// counts as not valid JSON, because an app parsing the output would fail the same way.
package struct StructuredOutputCheck: Sendable, Hashable {
    /// The schema the parsed value must satisfy; nil checks only that the text is JSON.
    package var schema: JSONSchema?

    /// A check against `schema`, or only for parsable JSON when nil.
    package init(schema: JSONSchema?) {
        self.schema = schema
    }

    /// Runs every step on `rawText`; never throws, problems are in the result.
    package func check(_ rawText: String) -> StructuredOutputResult {
        let (body, stripped) = Self.stripCodeFence(rawText)
        let value: JSONValue
        do {
            value = try JSONTextParser.parse(body)
        } catch {
            let violation = SchemaViolation(
                path: "$", keyword: "json", message: "output is not valid JSON: \(error)")
            return StructuredOutputResult(strippedCodeFence: stripped, value: nil, violations: [violation],
                                          schemaChecked: schema != nil)
        }
        return StructuredOutputResult(
            strippedCodeFence: stripped, value: value, violations: schema?.validate(value) ?? [],
            schemaChecked: schema != nil)
    }

    /// Removes a fence that wraps the whole (trimmed) text: an opening line of ```` ``` ```` or ```` ```json ````
    /// (any case) and a closing ```` ``` ```` line. Fences tagged with another language are left alone.
    static func stripCodeFence(_ text: String) -> (body: String, stripped: Bool) {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix("```"), trimmed.hasSuffix("```"), trimmed.count >= 6,
            let firstNewline = trimmed.firstIndex(where: \.isNewline)
        else { return (text, false) }
        let tag = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 3)..<firstNewline].trimmingWhitespace()
        guard tag.isEmpty || tag.lowercased() == "json" else { return (text, false) }
        let inner = trimmed[trimmed.index(after: firstNewline)..<trimmed.index(trimmed.endIndex, offsetBy: -3)]
        guard !inner.contains("```") else { return (text, false) }
        return (String(inner), true)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space and newlines (Foundation-free `trimmingCharacters`).
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
