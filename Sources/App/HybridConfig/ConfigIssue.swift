/// One problem found in a config document, at a JSON path such as `features.summarize.priority[2]`.
///
/// Errors make the document unusable; warnings (unknown keys, for example) are reported but do not block it, so an
/// older app keeps accepting configs written for a newer one.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// Whether the issue blocks the document.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    /// Where the problem is, in dotted path syntax with `[i]` for array items; `$` is the document root.
    public var path: String
    /// What is wrong and, where possible, how to fix it.
    public var message: String
    /// Errors block the document; warnings do not.
    public var severity: Severity
    /// A warning an app tolerates (a newer config may carry keys an older app does not know) but the harness does not
    /// publish unless told (`--allow-unknown-keys`): an unknown key, or a condition on a label nobody declared, is
    /// most often a misspelling that silently drops targeting.
    package var blocksPublishing = false
    /// The issue is a key the document model does not know (an app refuses the document for it unless the document
    /// declares a newer `schemaVersion`).
    var isUnknownKey = false

    /// Creates an issue; `path` is a `ConfigPath` rendering such as `features.summarize.priority[0]`.
    package init(path: String, message: String, severity: Severity = .error) {
        self.path = path
        self.message = message
        self.severity = severity
    }

    public var description: String {
        severity == .warning ? "\(path): warning: \(message)" : "\(path): \(message)"
    }
}
