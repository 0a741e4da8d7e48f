import Foundation
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// `hybrid check` exit codes as a script sees them: 0 passed, 1 a check failed, 2 the schema itself is unusable.
@Suite("hybrid check")
struct CheckCommandTests {
    static func check(_ schema: String, output: String) async throws -> ChildProcess.Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(schema.utf8).write(to: directory.appendingPathComponent("schema.json"))
        let packageRoot = ProjectRoot.url
        return try await ChildProcess.run(
            HybridCLI.executable(packageRoot: packageRoot), ["check", "--schema", "schema.json"], in: directory,
            input: Data(output.utf8))
    }

    static let schema = #"""
        {"type": "OBJECT", "propertyOrdering": ["when", "tags"], "required": ["when"],
         "properties": {"when": {"type": "string", "format": "date"},
                        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}}
        """#

    @Test func passingOutputExitsZero() async throws {
        let result = try await Self.check(Self.schema, output: #"{"when": "2026-11-22", "tags": ["a", "b"]}"#)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed, 0 failed"))
    }

    @Test func failingOutputExitsOneAndNamesThePath() async throws {
        let result = try await Self.check(Self.schema, output: #"{"when": "2026-02-30", "tags": ["a", "a"]}"#)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"$.when: "2026-02-30" is not a valid date"#), "\(result.stdout)")
        #expect(result.stdout.contains("$.tags: items [0] and [1] are equal"), "\(result.stdout)")
    }

    @Test func unsupportedKeywordExitsTwoWithItsSchemaPath() async throws {
        let schema = #"{"properties": {"a": {"items": {"unevaluatedItems": false}}}}"#
        let result = try await Self.check(schema, output: "{}")
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(
            "schema.json: properties.a.items.unevaluatedItems: keyword 'unevaluatedItems' is not supported"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func malformedSchemaExitsTwo() async throws {
        let invalid = try await Self.check(#"{"properties": {"a": {"minLength": -1}}}"#, output: "{}")
        #expect(invalid.status == 2, "\(invalid.stderr)")
        #expect(invalid.stderr.contains("properties.a.minLength: invalid value for 'minLength'"), "\(invalid.stderr)")
        let notJSON = try await Self.check(#"{"type": "#, output: "{}")
        #expect(notJSON.status == 2, "\(notJSON.stderr)")
        #expect(notJSON.stderr.contains("schema.json: not valid JSON"), "\(notJSON.stderr)")
    }
}
