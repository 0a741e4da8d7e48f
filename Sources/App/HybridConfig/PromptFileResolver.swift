public import Foundation

/// Finds template files named by `templateFile` (paths relative to `prompts/`).
///
/// Directories are searched first, in order, then the in-memory copies the harness compiles in. An app's resolver
/// has none by default: a config it fetches comes with its templates inlined (`hybrid config publish` does that).
public struct PromptFileResolver: Sendable {
    /// Folders standing for `prompts/`, searched in order.
    var directories: [URL]
    /// Path relative to `prompts/` → text, consulted after the directories.
    package var files: [String: String]

    /// Creates a resolver that searches `directories` in order.
    public init(directories: [URL] = []) {
        self.init(directories: directories, files: [:])
    }

    /// A resolver that searches `directories`, then `files`.
    package init(directories: [URL], files: [String: String]) {
        self.directories = directories
        self.files = files
    }

    /// Whether `path` is an acceptable reference: relative, no `..`, no empty components.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }

    /// The text of `relativePath`, or nil when no directory and no in-memory copy has it.
    package func contents(of relativePath: String) -> String? {
        guard Self.isSafeRelativePath(relativePath) else { return nil }
        for directory in directories {
            let url = directory.appendingPathComponent(relativePath)
            if let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) {
                return text
            }
        }
        return files[relativePath]
    }
}
