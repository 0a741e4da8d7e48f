public import HybridCore

/// What a tool call's arguments must look like in a dataset's `expected_tool_calls`.
///
/// JSON: an object holding any of `exact`, `subset`, `schema` and `regex`; every rule given must hold, and an
/// empty object (or no `arguments` at all) accepts any arguments.
/// - `exact`: the arguments equal this value (numbers by value, so `1` equals `1.0`; strings exactly).
/// - `subset`: every member given is present with a matching value (nested objects the same way, arrays element
///   by element with the same length); members not given may be anything.
/// - `schema`: the arguments are valid against this JSON Schema (the package's validator, as in configs).
/// - `regex`: member path (`title`, or `when.date` for a nested member) → a Swift `Regex` the member must match,
///   unanchored and case-sensitive unless it says `(?i)`; numbers and booleans match as written in JSON.
public struct ArgumentMatcher: Sendable, Hashable {
    /// The exact arguments, or nil.
    public var exact: JSONValue?
    /// Members the arguments must contain, or nil.
    public var subset: JSONValue?
    /// A schema the arguments must satisfy, or nil.
    public var schema: JSONSchema?
    /// Member path → pattern; empty for none.
    public var regex: [String: String]

    /// A matcher; with no rule it accepts any arguments.
    public init(exact: JSONValue? = nil, subset: JSONValue? = nil, schema: JSONSchema? = nil, regex: [String: String] = [:]) {
        self.exact = exact
        self.subset = subset
        self.schema = schema
        self.regex = regex
    }

    /// The rule names as written in datasets.
    public static let ruleNames = ["exact", "subset", "schema", "regex"]

    /// Why `arguments` fail this matcher, or nil when they match. `nil` arguments are arguments that did not
    /// parse as JSON; they match only a matcher with no rule.
    public func mismatch(_ arguments: JSONValue?) -> String? {
        let isEmpty = exact == nil && subset == nil && schema == nil && regex.isEmpty
        guard let arguments else { return isEmpty ? nil : "the arguments are not valid JSON" }
        if let exact, !arguments.isEquivalent(to: exact) {
            return "arguments \(arguments.shown(120)) are not exactly \(exact.shown(120))"
        }
        if let subset, let problem = Self.subsetMismatch(arguments, expected: subset, at: .root) {
            return problem
        }
        if let schema, let violation = schema.validate(arguments).first {
            return "arguments fail the schema at \(violation.path): \(violation.message)"
        }
        for path in regex.keys.sorted() {
            if let problem = Self.regexMismatch(arguments, path: path, pattern: regex[path]!) { return problem }
        }
        return nil
    }

    /// The first place `actual` lacks a member of `expected` or differs from it.
    static func subsetMismatch(_ actual: JSONValue, expected: JSONValue, at path: JSONPath) -> String? {
        switch (actual, expected) {
        case (.object(let got), .object(let want)):
            for key in want.keys.sorted() {
                let member = path.appending(key: key)
                guard let value = got[key] else { return "\(member) is missing" }
                if let problem = subsetMismatch(value, expected: want[key]!, at: member) { return problem }
            }
            return nil
        case (.array(let got), .array(let want)):
            guard got.count == want.count else { return "\(path) has \(got.count) elements, expected \(want.count)" }
            for (index, pair) in zip(got, want).enumerated() {
                if let problem = subsetMismatch(pair.0, expected: pair.1, at: path.appending(index: index)) { return problem }
            }
            return nil
        default:
            guard actual.isEquivalent(to: expected) else {
                return "\(path) is \(actual.shown(80)), expected \(expected.shown(80))"
            }
            return nil
        }
    }

    static func regexMismatch(_ arguments: JSONValue, path: String, pattern: String) -> String? {
        var value: JSONValue? = arguments
        for key in path.split(separator: ".", omittingEmptySubsequences: false) { value = value?[String(key)] }
        // Compiled per call: `Regex` is not Sendable, so a Sendable matcher cannot keep it.
        guard let value, let regex = try? Regex(pattern) else { return "$.\(path) is missing" }
        let text: String
        switch value {
        case .string(let s): text = s
        case .int, .double, .bool: text = value.canonicalJSON
        default: return "$.\(path) is \(value.typeName), not text to match /\(pattern)/"
        }
        return text.contains(regex) ? nil : "$.\(path) \(value.shown(80)) does not match /\(pattern)/"
    }
}

extension JSONValue {
    /// Canonical JSON cut to about `limit` characters, so a long argument cannot flood a message.
    func shown(_ limit: Int) -> String {
        let text = canonicalJSON
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
