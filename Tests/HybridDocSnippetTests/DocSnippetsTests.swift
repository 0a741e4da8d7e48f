import Foundation
import Testing

/// The Swift blocks of README.md and docs/ are compiled into this target by `make test`
/// (scripts/extract-doc-snippets.py writes them); this test fails when a document gained or lost a block since.
@Suite("Documentation snippets")
struct DocSnippetsTests {
    @Test func everySwiftBlockOfTheDocsIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var blocks = 0
        for path in ["README.md"] + docs {
            let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "```swift" {
                let partial = index > 0 && lines[index - 1].contains("snippet: partial")
                let manifest = index + 1 < lines.count && lines[index + 1].hasPrefix("// Package.swift")
                if !partial && !manifest { blocks += 1 }
            }
        }
        #expect(blocks == SnippetCount.compiled, "run scripts/extract-doc-snippets.py (make test does)")
    }
}
