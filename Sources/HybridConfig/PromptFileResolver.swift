public import Foundation

/// Finds template files named by `templateFile` (paths relative to `prompts/`).
///
/// Directories are searched first, in order (so `hybrid config validate prompts/hybrid.config.json` sees edits
/// on disk), then the copies compiled into the library.
public struct PromptFileResolver: Sendable {
    /// Folders standing for `prompts/`, searched in order.
    package var directories: [URL]
    /// Fall back to the templates compiled into the library.
    var useBundled: Bool

    /// Creates a resolver; `directories` are searched in order before the bundled templates.
    public init(directories: [URL] = [], useBundled: Bool = true) {
        self.directories = directories
        self.useBundled = useBundled
    }

    /// Only the templates compiled into the library.
    @usableFromInline package static let bundled = PromptFileResolver()

    /// Whether `path` is an acceptable reference: relative, no `..`, no empty components.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }

    /// The text of `relativePath`, or nil when no directory and no bundled copy has it.
    package func contents(of relativePath: String) -> String? {
        guard Self.isSafeRelativePath(relativePath) else { return nil }
        for directory in directories {
            let url = directory.appendingPathComponent(relativePath)
            if let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) {
                return text
            }
        }
        return useBundled ? BundledDefaults.files[relativePath] : nil
    }
}
