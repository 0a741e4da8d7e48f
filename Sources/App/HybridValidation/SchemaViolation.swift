/// One way a JSON value fails a ``JSONSchema``.
///
/// ``description`` renders `path: message`, e.g. `$.age: expected integer, got string "12"`.
package struct SchemaViolation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Instance path of the offending value: `$` for the root, `$.items[2].name` below it.
    package var path: String
    /// The schema keyword that failed (`type`, `required`, ...), or `json` when the text did not parse.
    package var keyword: String
    /// What is wrong, phrased so the prompt or schema author can act on it; does not repeat the path.
    package var message: String

    /// A violation; `message` should not repeat the path.
    package init(path: String, keyword: String, message: String) {
        self.path = path
        self.keyword = keyword
        self.message = message
    }

    package var description: String { "\(path): \(message)" }
}
