import HybridCore

/// A tool call a dataset case expects the model to make: the tool's name and how its arguments must look.
///
/// JSON: `{"name": "convert_units", "arguments": {"subset": {"to": "mi"}}}` (see ``ArgumentMatcher``).
public struct ExpectedToolCall: Sendable, Hashable {
    /// The tool's name, compared exactly.
    public var name: String
    /// The rules the call's arguments must meet.
    public var arguments: ArgumentMatcher

    /// An expected call; by default any arguments match.
    public init(name: String, arguments: ArgumentMatcher = ArgumentMatcher()) {
        self.name = name
        self.arguments = arguments
    }
}

/// A problem at one place of a dataset record, named by its JSON path (`expected_tool_calls[1].arguments.regex`).
struct DatasetFieldError: Error, Sendable, CustomStringConvertible {
    var path: JSONPath
    var message: String

    var description: String { "\(path.keywordPath): \(message)" }
}

extension ExpectedToolCall {
    /// The calls of `expected_tool_calls`: an array of `{"name", "arguments"}` objects, possibly empty (the model
    /// must answer without calling a tool).
    static func parseList(_ value: JSONValue, at path: JSONPath) throws(DatasetFieldError) -> [ExpectedToolCall] {
        guard case .array(let items) = value else {
            throw DatasetFieldError(path: path, message: "must be an array of expected calls, got \(value.typeName)")
        }
        var calls: [ExpectedToolCall] = []
        for (index, item) in items.enumerated() {
            calls.append(try parse(item, at: path.appending(index: index)))
        }
        return calls
    }

    static func parse(_ value: JSONValue, at path: JSONPath) throws(DatasetFieldError) -> ExpectedToolCall {
        guard case .object(let members) = value else {
            throw DatasetFieldError(path: path, message: "must be an object with \"name\" and \"arguments\", got \(value.typeName)")
        }
        if let unknown = Set(members.keys).subtracting(["name", "arguments"]).sorted().first {
            throw DatasetFieldError(path: path.appending(key: unknown), message: "unknown key (allowed: name, arguments)")
        }
        guard case .string(let name)? = members["name"], !name.isEmpty else {
            throw DatasetFieldError(path: path.appending(key: "name"), message: "must be the tool's name, a non-empty string")
        }
        guard let arguments = members["arguments"] else { return ExpectedToolCall(name: name) }
        return ExpectedToolCall(name: name, arguments: try ArgumentMatcher(parsing: arguments, at: path.appending(key: "arguments")))
    }
}

extension ArgumentMatcher {
    /// Parses `{"exact": …, "subset": {…}, "schema": {…}, "regex": {"path": "pattern"}}`; each problem is named
    /// by its path, and a pattern or schema that does not compile is refused here rather than scoring nothing.
    init(parsing value: JSONValue, at path: JSONPath) throws(DatasetFieldError) {
        guard case .object(let members) = value else {
            throw DatasetFieldError(
                path: path, message: "must be an object of rules (\(Self.ruleNames.joined(separator: ", "))), got \(value.typeName)")
        }
        if let unknown = Set(members.keys).subtracting(Self.ruleNames).sorted().first {
            throw DatasetFieldError(
                path: path.appending(key: unknown),
                message: "unknown rule (allowed: \(Self.ruleNames.joined(separator: ", "))); write {\"exact\": {…}} to compare the whole arguments")
        }
        self.init(exact: members["exact"])
        if let subset = members["subset"] {
            guard case .object = subset else {
                throw DatasetFieldError(path: path.appending(key: "subset"), message: "must be an object, got \(subset.typeName)")
            }
            self.subset = subset
        }
        if let schema = members["schema"] {
            do {
                self.schema = try JSONSchema(schema)
            } catch {
                throw DatasetFieldError(path: path.appending(key: "schema"), message: "not a usable JSON Schema: \(error)")
            }
        }
        if let regex = members["regex"] { self.regex = try Self.parseRegex(regex, at: path.appending(key: "regex")) }
    }

    private static func parseRegex(_ value: JSONValue, at path: JSONPath) throws(DatasetFieldError) -> [String: String] {
        guard case .object(let members) = value, !members.isEmpty else {
            throw DatasetFieldError(path: path, message: "must be a non-empty object of member path → pattern, got \(value.typeName)")
        }
        var patterns: [String: String] = [:]
        for (key, pattern) in members {
            guard case .string(let source) = pattern else {
                throw DatasetFieldError(path: path.appending(key: key), message: "must be a pattern string, got \(pattern.typeName)")
            }
            do {
                _ = try Regex(source)
            } catch {
                throw DatasetFieldError(path: path.appending(key: key), message: "invalid regular expression '\(source)': \(error)")
            }
            patterns[key] = source
        }
        return patterns
    }
}
