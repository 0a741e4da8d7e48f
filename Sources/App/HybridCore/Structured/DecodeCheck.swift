/// The `decodes` output check: the answer's JSON decodes into the app's Swift type. A schema-valid answer can still
/// fail it (a date in another format, a custom `init(from:)` that refuses a value), so routing can fall back on it
/// like any schema check (the `schema` entry of `fallbackOnOutput` selects it) and the harness counts it.
package struct DecodeCheck: Sendable, Hashable {
    /// The check's result name.
    package static let resultName = "decodes"
    /// The type, for messages and equality.
    let typeName: String
    private let attempt: @Sendable (JSONValue) -> String?

    /// The check for `type`, decoding with ``JSONValueDecoder``.
    package init<T: Decodable & SendableMetatype>(_ type: T.Type) {
        typeName = String(describing: T.self)
        attempt = { value in
            do {
                _ = try JSONValueDecoder().decode(T.self, from: value)
                return nil
            } catch {
                return String(describing: error)
            }
        }
    }

    /// The result on the answer parsed as JSON (nil: it did not parse).
    func check(_ parsed: JSONValue?) -> ConstraintResult {
        guard let parsed else {
            return ConstraintResult(
                name: Self.resultName, passed: false, observed: .null, limit: .string(typeName),
                message: "not JSON, so not a \(typeName)")
        }
        if let problem = attempt(parsed) {
            return ConstraintResult(
                name: Self.resultName, passed: false, observed: .bool(false), limit: .string(typeName),
                message: "does not decode as \(typeName): \(problem)")
        }
        return ConstraintResult(
            name: Self.resultName, passed: true, observed: .bool(true), limit: .string(typeName),
            message: "decodes as \(typeName)")
    }

    package static func == (lhs: DecodeCheck, rhs: DecodeCheck) -> Bool { lhs.typeName == rhs.typeName }
    package func hash(into hasher: inout Hasher) { hasher.combine(typeName) }
}
