package import Foundation

/// The checkout this package was built from: the folder above this file holding `Package.swift` and `Sources/App`.
/// Tests read datasets, prompts and docs from it and find built executables under it; searched for, not counted in
/// folders, so moving a test file never breaks it (and the nested `Tests/App` package, which has its own
/// `Package.swift`, is not mistaken for it).
package enum ProjectRoot {
    package static let url: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let manager = FileManager.default
            if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                manager.fileExists(atPath: folder.appendingPathComponent("Sources/App").path)
            {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        preconditionFailure("no HybridAI checkout above \(#filePath)")
    }()

    /// `relative` under the checkout (`datasets/extract.jsonl`, `prompts`).
    package static func appending(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}
