/// Every check a feature defines on its output: the JSON Schema (hard: the app parses the output), the soft
/// constraints on the text, and the arguments of any tool calls against the offered tools' schemas. The runner scores stored results with it and the router checks live responses with
/// it, so a result the report calls adherent is exactly one the router would accept.
package struct OutputChecks: Sendable, Hashable {
    /// The JSON parse and schema step; nil when the feature has no output schema.
    var structured: StructuredOutputCheck?
    /// Soft constraints; nil when the feature has none.
    var constraints: OutputConstraints?
    /// The tool-call check; nil when the request offered no tools.
    var tools: ToolCallCheck?
    /// The answer decodes into the app's type; nil unless the call asked for a Swift type (`generating:`).
    package var decodes: DecodeCheck?

    /// Checks for a feature's `schema` and `constraints` (empty constraints count as none) and the `tools` a
    /// request offers (none: no tool check).
    package init(schema: JSONSchema?, constraints: OutputConstraints?, tools: [ToolDefinition] = []) {
        self.structured = schema.map { StructuredOutputCheck(schema: $0) }
        self.constraints = constraints.flatMap { $0.isEmpty ? nil : $0 }
        self.tools = tools.isEmpty ? nil : ToolCallCheck(tools: tools)
    }

    /// Whether there is nothing to check.
    package var isEmpty: Bool { structured == nil && constraints == nil && tools == nil && decodes == nil }

    /// Runs the checks that apply to `response`. A response that called tools is not the final answer, so the
    /// schema and constraints (which describe the answer's text) wait for a later turn: only `tool_arguments` is
    /// reported, and only when the request offered tools. A text answer gets the text checks alone.
    package func evaluate(_ response: GenerationResponse) -> OutputCheckResult {
        guard !response.toolCalls.isEmpty else { return evaluate(response.text) }
        guard let tools else { return OutputCheckResult(results: [], parsed: nil, schemaViolations: []) }
        let check = tools.check(response.toolCalls)
        return OutputCheckResult(results: [check.result], parsed: nil, schemaViolations: [], toolViolations: check.violations)
    }

    /// Runs every check on `text`.
    package func evaluate(_ text: String) -> OutputCheckResult {
        var results: [ConstraintResult] = []
        var parsed: JSONValue?
        var violations: [SchemaViolation] = []
        if let structured {
            let check = structured.check(text)
            results += check.checks
            parsed = check.value
            violations = check.violations
        }
        if let decodes { results.append(decodes.check(parsed)) }
        if let constraints {
            results += constraints.evaluate(text)
        }
        return OutputCheckResult(results: results, parsed: parsed, schemaViolations: violations)
    }

    /// The result names these checks produce (each configured limit and pattern yields one result per output,
    /// whatever the text), for refusing a fallback on a check the feature does not have.
    /// `tool_arguments` is always included: any request may offer tools, which a feature's config cannot see.
    package var resultNamesProduced: Set<String> {
        Set(evaluate("").results.map(\.name)).union([ToolCallCheck.resultName])
    }

    /// Result names that come from a schema (the output's or a tool's) rather than from soft constraints; the
    /// `schema` entry of a routing policy selects them all.
    package static let schemaResultNames: Set<String> = [
        "json_parses", "schema_valid", DecodeCheck.resultName, ToolCallCheck.resultName,
    ]

    /// Every result name a check can produce, for validating names a routing policy falls back on.
    package static let resultNames: [String] = [
        "json_parses", "schema_valid", "min_sentences", "max_sentences", "min_words", "max_words", "max_characters",
        "single_paragraph", "must_contain", "must_not_contain", ToolCallCheck.resultName, DecodeCheck.resultName,
    ]
}

/// The outcome of ``OutputChecks/evaluate(_:)`` on one output.
package struct OutputCheckResult: Sendable, Hashable {
    /// One result per check, schema steps first (`json_parses`, `schema_valid`), then soft constraints: the list
    /// the runner stores.
    package var results: [ConstraintResult]
    /// The output parsed as JSON, when a schema applied and it parsed.
    package var parsed: JSONValue?
    /// The parse failure or every schema violation, with instance paths.
    var schemaViolations: [SchemaViolation]
    /// Every problem with the response's tool calls, at paths under `$.tool_calls[i]`.
    var toolViolations: [SchemaViolation]

    /// Creates a result; ``OutputChecks/evaluate(_:)`` builds these.
    package init(
        results: [ConstraintResult], parsed: JSONValue?, schemaViolations: [SchemaViolation],
        toolViolations: [SchemaViolation] = []
    ) {
        self.results = results
        self.parsed = parsed
        self.schemaViolations = schemaViolations
        self.toolViolations = toolViolations
    }

    /// True when every check passed (vacuously true with none).
    package var adherent: Bool { results.allSatisfy(\.passed) }

    /// How many checks failed; the router's "best attempt" is the response failing the fewest.
    package var failedCount: Int { results.count { !$0.passed } }

    /// The failed checks `selection` names, each with what failed (a schema path and keyword, a constraint name).
    package func failures(selectedBy selection: OutputCheckSelection) -> [FailedOutputCheck] {
        var out: [FailedOutputCheck] = []
        for result in results where !result.passed && selection.selects(result.name) {
            switch result.name {
            case "json_parses":
                out.append(FailedOutputCheck(name: result.name, path: "$", keyword: "json", message: result.message))
            case "schema_valid" where parsed == nil:
                // Not JSON: say so once, under json_parses when that is selected too.
                if !selection.selects("json_parses") {
                    out.append(FailedOutputCheck(name: result.name, path: "$", keyword: "json", message: result.message))
                }
            case "schema_valid":
                for violation in schemaViolations {
                    out.append(FailedOutputCheck(
                        name: result.name, path: violation.path, keyword: violation.keyword, message: violation.message))
                }
            case ToolCallCheck.resultName:
                for violation in toolViolations {
                    out.append(FailedOutputCheck(
                        name: result.name, path: violation.path, keyword: violation.keyword, message: violation.message))
                }
            default:
                out.append(FailedOutputCheck(name: result.name, path: nil, keyword: nil, message: result.message))
            }
        }
        return out
    }

    /// Every failed check.
    package var failures: [FailedOutputCheck] { failures(selectedBy: .all) }
}

/// One failed output check, as a routed attempt records it: `schema: $.topics minItems`, `constraint: max_words`.
public struct FailedOutputCheck: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The check's result name (`json_parses`, `schema_valid`, `max_words`, …).
    public var name: String
    /// For schema failures, the instance path of the offending value (`$` for the root).
    public var path: String?
    /// For schema failures, the keyword that failed (`minItems`, `required`, or `json` when the text did not parse).
    public var keyword: String?
    /// What was wrong, for people.
    public var message: String

    /// Creates a failure record.
    init(name: String, path: String?, keyword: String?, message: String) {
        self.name = name
        self.path = path
        self.keyword = keyword
        self.message = message
    }

    /// Whether it is a schema failure (the hard contract) rather than a soft constraint.
    var isSchema: Bool { OutputChecks.schemaResultNames.contains(name) }

    public var description: String {
        if name == ToolCallCheck.resultName { return "\(name): \(path ?? "$") \(keyword ?? "")" }
        if name == "json_parses" || keyword == "json" { return "schema: not valid JSON" }
        if isSchema { return "schema: \(path ?? "$") \(keyword ?? name)" }
        return "constraint: \(name)"
    }
}

/// Which failed output checks make a router move on to the next model: the schema steps, every soft constraint,
/// and/or constraints by result name.
///
/// Written in configs and on the command line as a list of `schema`, `constraints` and result names
/// (`max_words`, `must_contain`, …; see ``OutputChecks/resultNames``).
package struct OutputCheckSelection: Sendable, Hashable {
    /// A failed JSON parse or schema validation selects.
    package var schema: Bool
    /// Any failed soft constraint selects.
    package var allConstraints: Bool
    /// Result names selected one by one.
    package var names: Set<String>

    /// A selection; the default selects nothing.
    package init(schema: Bool = false, allConstraints: Bool = false, names: Set<String> = []) {
        self.schema = schema
        self.allConstraints = allConstraints
        self.names = names
    }

    /// Selects nothing: outputs are never a reason to fall back.
    package static let none = OutputCheckSelection()
    /// Selects every check (the eval's "adherence").
    static let all = OutputCheckSelection(schema: true, allConstraints: true)

    /// Parses the written form; the error names the first entry that is neither `schema`, `constraints` nor a
    /// result name.
    package init(parsing entries: [String]) throws(OutputCheckSelectionError) {
        self.init()
        for (index, entry) in entries.enumerated() {
            switch entry {
            case "schema": schema = true
            case "constraints": allConstraints = true
            case let name where OutputChecks.resultNames.contains(name): names.insert(name)
            default: throw OutputCheckSelectionError(index: index, entry: entry)
            }
        }
    }

    /// Whether nothing is selected.
    package var isEmpty: Bool { !schema && !allConstraints && names.isEmpty }

    /// Whether a failure of result `name` is selected.
    package func selects(_ name: String) -> Bool {
        if names.contains(name) { return true }
        return OutputChecks.schemaResultNames.contains(name) ? schema : allConstraints
    }
}

/// An entry of an output-check list that names no check.
package struct OutputCheckSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Position of the entry in the list.
    package var index: Int
    /// The entry as written.
    var entry: String

    package var description: String {
        "\"\(entry)\" is not an output check; use schema, constraints or one of "
            + OutputChecks.resultNames.joined(separator: ", ")
    }
}
