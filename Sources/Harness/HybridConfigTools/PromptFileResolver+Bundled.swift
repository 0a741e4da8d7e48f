import Foundation
package import HybridConfig
package import HybridCore

extension PromptFileResolver {
    /// The templates under `prompts/` as compiled into the harness.
    package static let bundled = PromptFileResolver(directories: [], files: BundledDefaults.files)

    /// `tree` with each `"templateFile": path` this resolver finds replaced by `"template": <the file's text>`; every
    /// other member kept as written (unknown keys included). What is published carries its templates inline: an app
    /// has no `prompts/` folder.
    package func inliningTemplateFiles(in tree: JSONValue) -> JSONValue {
        switch tree {
        case .object(var members):
            if case .string(let path)? = members["templateFile"], let text = contents(of: path) {
                members["templateFile"] = nil
                members["template"] = .string(text)
            }
            return .object(members.mapValues(inliningTemplateFiles))
        case .array(let items): return .array(items.map(inliningTemplateFiles))
        default: return tree
        }
    }

    /// The templates of the config file at `path`: its folder first (so `hybrid config validate
    /// prompts/hybrid.config.json` sees edits on disk), then the copies compiled into the harness.
    package static func forConfigFile(_ path: String) -> PromptFileResolver {
        PromptFileResolver(directories: [URL(fileURLWithPath: path).deletingLastPathComponent()], files: bundled.files)
    }
}
