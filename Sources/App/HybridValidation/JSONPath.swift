/// A location inside a JSON document, rendered as `$.items[2].name` for instances and
/// `properties.items.items.format` for schema keywords.
///
/// Keys that are not plain identifiers are rendered in bracket form with JSON escaping
/// (`$["first name"]`) so every rendered path is unambiguous.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step from a container to a member.
    enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document root; empty for the root itself.
    var components: [Component]

    /// The root of a document.
    package static let root = JSONPath(components: [])

    /// A path from the root through `components`.
    init(components: [Component]) {
        self.components = components
    }

    /// This path extended by an object member.
    package func appending(key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// This path extended by an array element.
    package func appending(index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// Instance form: `$` for the root, `$.items[2].name` below it.
    package var description: String {
        "$" + renderedSteps(leadingDot: true)
    }

    /// Keyword form used for schema and config errors: `properties.age.minimum`, or `$` for the root.
    package var keywordPath: String {
        components.isEmpty ? "$" : renderedSteps(leadingDot: false)
    }

    private func renderedSteps(leadingDot: Bool) -> String {
        var out = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .index(let i):
                out += "[\(i)]"
            case .key(let key) where Self.isIdentifier(key):
                if position > 0 || leadingDot { out += "." }
                out += key
            case .key(let key):
                out += "[" + JSONValue.string(key).compactJSON(limit: .max) + "]"
            }
        }
        return out
    }

    /// Identifiers may start with `$` so schema keywords like `$defs` stay readable.
    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first else { return false }
        func isASCIILetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
        guard isASCIILetter(first) || first == "_" || first == "$" else { return false }
        return key.unicodeScalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "$" }
    }
}
