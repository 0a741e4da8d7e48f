import Foundation
import Testing

/// ARCHITECTURE.md's module table is the only map of the package a newcomer has (tools that draw a package from its
/// imports do not read Swift), so it is checked against the manifest SwiftPM resolves: every target has a row, every
/// row names a target that exists, each row's "depends on" names exactly the targets it depends on, and the products
/// table lists every library product (#52).
@Suite("ARCHITECTURE.md matches Package.swift")
struct ArchitectureMapTests {
    static let document = PackageLayoutTests.packageRoot.appendingPathComponent("ARCHITECTURE.md")

    /// The rows of the Markdown table whose header row starts with `header`, as cells.
    static func table(startingWith header: String) throws -> [[String]] {
        let lines = try String(contentsOf: document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix(header) }, "ARCHITECTURE.md has no table starting \(header)")
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// The names a first cell gives in backticks (`Tools/hybrid-bench` names `hybrid-bench`).
    static func named(_ cell: String) -> [String] {
        cell.matches(of: /`([^`]+)`/).map { String($0.output.1.split(separator: "/").last ?? "") }
    }

    /// The targets a "depends on" cell mentions: a target's name, or its name without the `Hybrid` prefix, as a word.
    static func mentioned(_ cell: String, among targets: Set<String>) -> Set<String> {
        var found = Set<String>()
        for match in cell.matches(of: /[A-Za-z][A-Za-z0-9_-]*/) {
            let word = String(match.output)
            if targets.contains(word) { found.insert(word) } else if targets.contains("Hybrid" + word) { found.insert("Hybrid" + word) }
        }
        return found
    }

    @Test("every target has a row in the module table; every row names real targets; its dependencies are exact")
    func moduleTable() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        let targets = manifest.targets.values.filter { $0.type != "test" }
        let names = Set(targets.map(\.name))
        let rows = try Self.table(startingWith: "| module (folder) |")
        var covered = Set<String>()
        for row in rows {
            let inRow = Self.named(row[0])
            for name in inRow where !names.contains(name) {
                Issue.record("ARCHITECTURE.md names `\(name)`, which Package.swift has no target called")
            }
            let rowTargets = Set(inRow).intersection(names)
            covered.formUnion(rowTargets)
            let expected = Set(rowTargets.flatMap { manifest.targets[$0]!.targetDependencies }).intersection(names).subtracting(rowTargets)
            let written = Self.mentioned(row[2], among: names)
            #expect(written == expected, """
                ARCHITECTURE.md row \(inRow.joined(separator: ", ")): depends on \(expected.sorted()) per Package.swift, \
                the table says \(written.sorted()) (missing \(expected.subtracting(written).sorted()), extra \(written.subtracting(expected).sorted()))
                """)
        }
        #expect(covered == names, "targets without a row in ARCHITECTURE.md: \(names.subtracting(covered).sorted())")
    }

    @Test("each row names a target with the half it sits in (`App/HybridCore`: Sources/App/HybridCore)")
    func rowsNameTheirHalf() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        for row in try Self.table(startingWith: "| module (folder) |") {
            for match in row[0].matches(of: /`([^`]+)`/) {
                let parts = match.output.1.split(separator: "/").map(String.init)
                guard let target = manifest.targets[parts.last ?? ""] else { continue }
                let half = PackageHalvesTests.half(of: target)?.rawValue
                #expect(parts.count == 2 ? parts[0] == half : half == nil, "ARCHITECTURE.md writes `\(match.output.1)`; it sits in \(target.path ?? "?")")
            }
        }
    }

    @Test("the products table lists every library product and nothing that is not one")
    func productsTable() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        let libraries = Set(manifest.products.keys).subtracting(manifest.targets.values.filter { $0.type == "executable" }.map(\.name))
        let listed = Set(try Self.table(startingWith: "| product |").flatMap { Self.named($0[0]) })
        #expect(listed == libraries, "products missing from ARCHITECTURE.md: \(libraries.subtracting(listed).sorted()); listed but not products: \(listed.subtracting(libraries).sorted())")
    }
}
