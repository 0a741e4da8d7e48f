import Foundation
import Testing

/// ARCHITECTURE.md's size table says what the code's lines are spent on, module by module (#65 retired the line
/// budget for this): every source target has a row, and each row's figure is within 5 % (at least 150 lines) of the
/// lines in its folders, so the table moves with the code instead of going stale.
@Suite("ARCHITECTURE.md's size table matches the tree")
struct ArchitectureSizeTests {
    /// Lines of the files SwiftPM compiles or a C shim exposes under `folder`.
    static func lines(under folder: URL) throws -> Int {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { ["swift", "c", "h"].contains($0.pathExtension) } ?? []
        return try files.reduce(0) { total, file in
            total + (try String(contentsOf: file, encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
    }

    @Test("every source target has a row; each row's lines are within 5 % (150 lines at least) of its folders")
    func sizeTable() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        let sources = manifest.targets.values.filter { $0.type != "test" && ($0.path ?? "").hasPrefix("Sources/") }
        let rows = try ArchitectureMapTests.table(startingWith: "| module | lines |")
        var covered = Set<String>()
        for row in rows {
            let names = ArchitectureMapTests.named(row[0])
            let stated = try #require(Int(row[1].replacingOccurrences(of: ",", with: "")), "size row \(row[0]): \(row[1]) is not a number")
            var actual = 0
            for name in names {
                let target = try #require(manifest.targets[name], "size row names \(name), which Package.swift has no target called")
                actual += try Self.lines(under: manifest.sourceDirectory(of: target.name))
                covered.insert(name)
            }
            let slack = max(150, actual / 20)
            #expect(abs(stated - actual) <= slack, "ARCHITECTURE.md's size table says \(row[0]) has \(stated) lines; the tree has \(actual)")
        }
        let missing = Set(sources.map(\.name)).subtracting(covered)
        #expect(missing.isEmpty, "source targets without a row in ARCHITECTURE.md's size table: \(missing.sorted())")
    }
}
