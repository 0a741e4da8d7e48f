/// Checks the tool calls of a response against the tools the request offered: each call must name an offered
/// tool, and its arguments must parse as JSON and satisfy that tool's `parameters` schema.
///
/// Problems are results, never errors: a model that invents a tool or sends malformed arguments fails the
/// `tool_arguments` output check, which a routing policy can fall back on like any schema failure.
package struct ToolCallCheck: Sendable, Hashable {
    /// The result name this check reports under.
    package static let resultName = "tool_arguments"

    /// The tools the request offered.
    var tools: [ToolDefinition]

    /// A check against `tools`.
    package init(tools: [ToolDefinition]) {
        self.tools = tools
    }

    /// Every problem with `calls`, each at an instance path under `$.tool_calls[i]` (`$.tool_calls[0].arguments.unit`).
    package func violations(_ calls: [ToolCall]) -> [SchemaViolation] {
        var schemas: [String: Result<JSONSchema, SchemaError>] = [:]
        for tool in tools where schemas[tool.name] == nil {
            schemas[tool.name] = Result { () throws(SchemaError) in try JSONSchema(tool.parameters) }
        }
        return calls.enumerated().flatMap { index, call in
            violations(call, at: "$.tool_calls[\(index)]", schemas: schemas)
        }
    }

    /// One `tool_arguments` result for `calls`: passed when there is no violation.
    package func check(_ calls: [ToolCall]) -> (result: ConstraintResult, violations: [SchemaViolation]) {
        let found = violations(calls)
        let message: String
        if found.isEmpty {
            message = "\(calls.count) tool call\(calls.count == 1 ? "" : "s") with valid arguments"
        } else {
            message = "\(found.count) violation\(found.count == 1 ? "" : "s"): "
                + found.prefix(3).map(\.description).joined(separator: "; ") + (found.count > 3 ? "; …" : "")
        }
        let result = ConstraintResult(
            name: Self.resultName, passed: found.isEmpty, observed: .int(found.count), limit: .int(0), message: message)
        return (result, found)
    }

    private func violations(
        _ call: ToolCall, at path: String, schemas: [String: Result<JSONSchema, SchemaError>]
    ) -> [SchemaViolation] {
        guard let compiled = schemas[call.name] else {
            let offered = tools.isEmpty ? "none was offered" : "offered: " + tools.map(\.name).joined(separator: ", ")
            return [SchemaViolation(
                path: path + ".name", keyword: "tool", message: "calls tool \"\(call.name)\", which was not offered (\(offered))")]
        }
        let argumentsPath = path + ".arguments"
        let arguments: JSONValue
        do {
            arguments = try JSONValue(parsing: call.argumentsText)
        } catch {
            return [SchemaViolation(
                path: argumentsPath, keyword: "json",
                message: "arguments of \(call.name) are not valid JSON: \(error.description)")]
        }
        switch compiled {
        case .failure(let error):
            return [SchemaViolation(
                path: argumentsPath, keyword: "schema",
                message: "tool \(call.name) has an unusable parameters schema (\(error.description))")]
        case .success(let schema):
            return schema.validate(arguments).map { violation in
                SchemaViolation(
                    path: argumentsPath + violation.path.dropFirst(), keyword: violation.keyword,
                    message: "\(call.name): \(violation.message)")
            }
        }
    }
}
