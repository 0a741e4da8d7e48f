import Foundation
import HybridConfig
import HybridConfigTools
import HybridLocalModelTestSupport
import HybridProjectTestSupport
import HybridTestSupport
import Testing

/// `hybrid config validate` and `publish` refuse what would silently drop targeting: a misspelt key (`overides`)
/// and a condition on a label nobody declared (`deviceClas`), listing every path, unless told `--allow-unknown-keys`.
@Suite("config validate and publish refuse unknown keys and undeclared labels")
struct ConfigUnknownKeysCLITests {
    /// The bundled defaults with a condition on `label` and, under the misspelt `overides`, its override.
    static func document(label: String, declaring labels: [String]? = nil) throws -> String {
        var text = String(decoding: try HybridConfigDocument.bundledDefaults().document.encodedJSON(), as: UTF8.self)
        var head = "{\n  \"conditions\": [{\"name\": \"older\", \"labels\": {\"\(label)\": {\"equals\": \"phone-2019\"}}}],\n"
        if let labels { head += "  \"labels\": [\(labels.map { "\"\($0)\"" }.joined(separator: ", "))],\n" }
        text = head + text.dropFirst(2)
        // The summarize feature overrides its priority for the condition, under a misspelt key.
        return text.replacingOccurrences(
            of: "\"defaultVariant\" : \"concise\",", with: "\"defaultVariant\" : \"concise\",\n\"overides\": {\"older\": {\"priority\": [\"gemini-flash\"]}},")
    }

    @Test("a misspelt key and an undeclared label: refused with every path, accepted with --allow-unknown-keys")
    func misspellingsAreRefused() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let file = fixture.directory.appendingPathComponent("typo.json").path
        try Data(try Self.document(label: "deviceClas").utf8).write(to: URL(fileURLWithPath: file))

        let validate = try await fixture.hybrid(["config", "validate", file])
        #expect(validate.status == 1, "\(validate.output)")
        #expect(validate.output.contains("features.summarize.overides: warning: unknown key (ignored); did you mean \"overrides\"?"), "\(validate.output)")
        #expect(validate.output.contains("conditions[0].labels.deviceClas: warning: label \"deviceClas\" is neither built in"), "\(validate.output)")
        #expect(validate.output.contains("2 unknown key(s) or undeclared label(s)"), "\(validate.output)")
        #expect(try await fixture.hybrid(["config", "validate", file, "--allow-unknown-keys"]).status == 0)

        let target = fixture.directory.appendingPathComponent("published.json").path
        let publish = try await fixture.hybrid(["config", "publish", file, "--to", target, "--db", fixture.database])
        #expect(publish.status != 0, "\(publish.output)")
        #expect(publish.output.contains("features.summarize.overides"), "\(publish.output)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing published")
        let forced = try await fixture.hybrid(["config", "publish", file, "--to", target, "--db", fixture.database, "--allow-unknown-keys"])
        #expect(forced.status == 0, "\(forced.output)")
    }

    @Test("eval --config prints the warnings config validate prints, before it runs anything")
    func evalWarnsAsValidateDoes() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        let file = fixture.directory.appendingPathComponent("typo.json").path
        try Data(try Self.document(label: "deviceClass").utf8).write(to: URL(fileURLWithPath: file))
        let validate = try await fixture.hybrid(["config", "validate", file])
        let warning = "\(file): features.summarize.overides: warning: unknown key (ignored); did you mean \"overrides\"?"
        #expect(validate.output.contains(warning), "\(validate.output)")
        // An unknown scorer stops the eval as a usage error (64) before any local server is started.
        let standIn = try StandInLlamaServer(.exitsBeforeListening(1))
        defer { standIn.remove() }
        let eval = try await HybridCLI.run([
            "eval", "--config", file, "--feature", "summarize", "--dataset", fixture.writeDataset("cases.jsonl", count: 1),
            "--db", fixture.database, "--scorers", "label_mach",
        ], in: fixture.directory, environment: standIn.environment)
        #expect(eval.status == 64, "\(eval.output)")
        #expect(eval.output.contains("unknown scorer \"label_mach\""), "\(eval.output)")
        #expect(standIn.launches == 0)
        let models = try await fixture.hybrid(["models", "--config", file, "--no-start"])
        #expect(models.output.contains(warning), "\(models.output)")
    }

    @Test("a custom label the document declares is accepted; a built-in one needs no declaration")
    func declaredLabelsPass() async throws {
        let fixture = try CLIFixture()
        defer { fixture.remove() }
        for (name, text) in [("declared.json", try Self.document(label: "tier", declaring: ["tier"])), ("builtin.json", try Self.document(label: "deviceClass"))] {
            let file = fixture.directory.appendingPathComponent(name).path
            try Data(text.replacingOccurrences(of: "\"overides\"", with: "\"overrides\"").utf8).write(to: URL(fileURLWithPath: file))
            let validate = try await fixture.hybrid(["config", "validate", file])
            #expect(validate.status == 0, "\(name): \(validate.output)")
        }
    }
}
