import HybridConfig

/// One difference between two config documents, in words a reviewer can read.
public struct ConfigChange: Sendable, Hashable, CustomStringConvertible {
    /// What changed, as a config path (`features.summarize.priority`).
    public var path: String
    /// The change (`local-smollm2, gemini-flash → gemini-flash, local-smollm2`); may span lines for prompts.
    public var summary: String

    /// Creates a change entry; `ConfigDiff` produces these.
    public init(path: String, summary: String) {
        self.path = path
        self.summary = summary
    }

    public var description: String {
        summary.contains("\n") ? "\(path):\n\(summary)" : "\(path): \(summary)"
    }
}
