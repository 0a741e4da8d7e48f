import Foundation
// Testable for the package-only ProjectRoot; the snippets themselves import only what an app can.
@testable import HybridTestSupport
import Testing

/// The Swift blocks of README.md and docs/ are compiled into this target by `make test`
/// (scripts/extract-doc-snippets.py writes them); this test fails when a document gained or lost a block since.
@Suite("Documentation snippets")
struct DocSnippetsTests {
    @Test func everySwiftBlockOfTheDocsIsCompiledHere() throws {
        let root = ProjectRoot.url
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var blocks = 0
        for path in ["README.md"] + docs {
            let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            blocks += lines.count { $0.trimmingCharacters(in: .whitespaces) == "```swift" }
        }
        #expect(blocks == SnippetCount.blocks, "run scripts/extract-doc-snippets.py (make test does)")
    }
}
