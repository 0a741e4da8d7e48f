import Foundation

/// The query string of a request, decoded as an HTML form sends it (`+` is a space, `%XX` bytes are UTF-8).
///
/// Hummingbird's own query map decodes `%XX` but keeps `+`, which would turn a search for "two words" typed into
/// the grid's form into "two+words".
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    /// Parses `query` (the part after `?`, without it); nil gives no parameters.
    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decode(parts[0])
            guard !key.isEmpty, values[key] == nil else { continue }
            values[key] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    /// The value of `name`, or nil when absent or empty.
    subscript(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// True for a checked checkbox (`1`, `on`, `true`).
    func flag(_ name: String) -> Bool {
        guard let value = self[name] else { return false }
        return ["1", "on", "true", "yes"].contains(value.lowercased())
    }

    /// A non-negative integer, or `fallback` when absent or malformed.
    func integer(_ name: String, default fallback: Int) -> Int {
        guard let text = self[name], let value = Int(text), value >= 0 else { return fallback }
        return value
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
