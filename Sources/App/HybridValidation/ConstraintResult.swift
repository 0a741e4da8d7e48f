/// Whether one configured constraint held for one output, with what was seen, so reports can show
/// adherence per constraint.
package struct ConstraintResult: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Stable snake_case name: `max_sentences`, `must_not_contain`, `json_parses`, ...
    package var name: String
    /// Whether the output met the constraint.
    package var passed: Bool
    /// What the output had: a count, a boolean, or null when it could not be measured.
    package var observed: JSONValue
    /// The configured limit or pattern the observation was compared with.
    var limit: JSONValue
    /// A sentence a prompt author can act on, e.g. `5 sentences, at most 3 allowed`.
    package var message: String

    /// A result; `observed` and `limit` should be JSON a report can print as is.
    package init(name: String, passed: Bool, observed: JSONValue, limit: JSONValue, message: String) {
        self.name = name
        self.passed = passed
        self.observed = observed
        self.limit = limit
        self.message = message
    }

    package var description: String { "\(name) \(passed ? "passed" : "FAILED"): \(message)" }
}
