/// A location in a JSON document, printed as `features.summarize.priority[2]`.
///
/// Keys that are not plain identifiers (dots, brackets, spaces, empty) are printed quoted: `models["a.b"]`.
package struct ConfigPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: an object key or an array index.
    package enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the root; empty for the root.
    var components: [Component]

    /// Creates a path from steps; the default is the root.
    package init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document root.
    package static let root = ConfigPath()

    /// This path extended by an object key.
    package func key(_ key: String) -> ConfigPath { appending(.key(key)) }
    /// This path extended by an array index.
    package func index(_ index: Int) -> ConfigPath { appending(.index(index)) }
    /// This path followed by `other`.
    func appending(_ other: ConfigPath) -> ConfigPath { ConfigPath(components + other.components) }

    /// One allocation per step (`components + [step]` made two): validation builds a path for every check.
    private func appending(_ component: Component) -> ConfigPath {
        var copy: [Component] = []
        copy.reserveCapacity(components.count + 1)
        copy += components
        copy.append(component)
        return ConfigPath(copy)
    }

    package var description: String {
        if components.isEmpty { return "$" }
        var out = ""
        for component in components {
            switch component {
            case .index(let i):
                out += "[\(i)]"
            case .key(let k) where Self.isPlain(k):
                out += out.isEmpty ? k : ".\(k)"
            case .key(let k):
                let escaped = k.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                out += "[\"\(escaped)\"]"
            }
        }
        return out
    }

    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && !key.contains(where: { $0 == "." || $0 == "[" || $0 == "]" || $0 == "\"" || $0.isWhitespace })
    }

    /// The path of a `DecodingError`'s coding path, relative to where decoding started.
    init(codingPath: [any CodingKey]) {
        self.components = codingPath.map { key in
            // JSONDecoder names array positions "Index N"; a dictionary key that happens to be numeric keeps its text.
            if let i = key.intValue, key.stringValue == "Index \(i)" { return .index(i) }
            return .key(key.stringValue)
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
