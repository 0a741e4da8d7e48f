/// The outcome of a ``StructuredOutputCheck`` on one output.
package struct StructuredOutputResult: Sendable, Hashable {
    /// Whether a Markdown code fence around the whole output was removed before parsing.
    var strippedCodeFence: Bool
    /// The parsed value, or nil when the text is not JSON.
    package var value: JSONValue?
    /// The parse failure (one violation, keyword `json`, at `$`) or every schema violation; empty when all passed.
    package var violations: [SchemaViolation]
    /// Whether a schema was given; without one ``schemaValid`` is never reported.
    var schemaChecked: Bool

    /// A result as ``StructuredOutputCheck/check(_:)`` builds it.
    init(strippedCodeFence: Bool, value: JSONValue?, violations: [SchemaViolation], schemaChecked: Bool) {
        self.strippedCodeFence = strippedCodeFence
        self.value = value
        self.violations = violations
        self.schemaChecked = schemaChecked
    }

    /// Whether the (fence-stripped) text parsed as JSON.
    var parsesAsJSON: Bool { value != nil }

    /// Whether the text parsed and satisfied the schema (or parsed, when there was no schema).
    var passed: Bool { value != nil && violations.isEmpty }

    /// One result per step, named `json_parses` and (with a schema) `schema_valid`, for per-check reporting.
    /// `schema_valid` fails when the text did not parse, since the schema could not hold.
    package var checks: [ConstraintResult] {
        let parseMessage = violations.first(where: { $0.keyword == "json" })?.message
            ?? (strippedCodeFence ? "parsed after stripping a code fence" : "parsed")
        var results = [
            ConstraintResult(
                name: "json_parses", passed: parsesAsJSON, observed: .bool(parsesAsJSON), limit: .bool(true),
                message: parseMessage)
        ]
        if schemaChecked {
            let schemaViolations = value == nil ? [] : violations
            let message: String
            if value == nil {
                message = "not checked: the output is not valid JSON"
            } else if schemaViolations.isEmpty {
                message = "conforms to the schema"
            } else {
                message = "\(schemaViolations.count) violation\(schemaViolations.count == 1 ? "" : "s"): "
                    + schemaViolations.prefix(3).map(\.description).joined(separator: "; ")
                    + (schemaViolations.count > 3 ? "; …" : "")
            }
            results.append(
                ConstraintResult(
                    name: "schema_valid", passed: passed,
                    observed: value == nil ? .null : .int(schemaViolations.count), limit: .int(0),
                    message: message))
        }
        return results
    }
}
