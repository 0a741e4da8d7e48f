import Foundation
import HybridCore
import HybridTestSupport
import Testing

@testable import HybridConfig
import HybridProjectTestSupport

/// The one config reader (`HybridConfigDocument(tree:)`) must give exactly the document the `Decodable` conformance
/// gives (apps may decode documents themselves), and refuse whatever it refuses, naming the path.
@Suite struct ConfigTreeDecodingTests {
    /// Documents both paths must decode, equally.
    static let valid: [(String, Data)] = [
        ("bundled defaults", HybridConfigDocument.bundledDefaultsJSON),
        ("prompts/hybrid.config.json", try! Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("prompts/hybrid.config.json"))),
        ("generated 203 features", try! GeneratedConfig.document(base: HybridConfigDocument.bundledDefaultsJSON, features: 200)),
        ("every optional field set", Fixtures.config { tree in
            tree.set(["routing"], ["streaming": "buffered", "attemptTimeoutMs": 4000, "fallbackOnOutput": ["schema"]])
            tree.set(["features", "summarize", "routing"], ["attemptTimeoutMs": 2000, "onError": ["timeout": "stop"]])
            tree.set(["features", "summarize", "events"], ["includeContent": true])
            tree.set(["features", "summarize", "options"], ["temperature": 1, "topP": 0.5, "seed": 7, "maxOutputTokens": 64])
            tree.set(["features", "summarize", "constraints"], [
                "minSentences": 1, "maxSentences": 3, "minWords": 2, "maxWords": 80.0, "maxCharacters": 500,
                "singleParagraph": true, "mustContain": ["fish", ["regex": "a+b"]], "mustNotContain": [["regex": "x"]],
            ])
            tree.set(["features", "extract", "variants", "default", "instructions"], "Only JSON.")
        }),
        ("nulls where optional", Fixtures.config { tree in
            tree.set(["description"], .null)
            tree.set(["rollouts"], .null)
            tree.set(["features", "summarize", "description"], .null)
            tree.set(["features", "summarize", "inputs"], .null)
            tree.set(["features", "summarize", "constraints", "mustContain"], .null)
            tree.set(["features", "summarize", "events"], [:])
        }),
        ("version as a whole double", Fixtures.config { $0.set(["version"], .double(3)) }),
    ]

    /// Documents both paths must refuse.
    static let refused: [(String, Data)] = [
        ("description a number", Fixtures.config { $0.set(["features", "summarize", "description"], 3) }),
        ("unknown constraint", Fixtures.config { $0.set(["features", "summarize", "constraints", "maxParagraphs"], 1) }),
        ("pattern object with an extra key", Fixtures.config {
            $0.set(["features", "summarize", "constraints", "mustContain"], [["regex": "a", "flags": "i"]])
        }),
        ("pattern object without regex", Fixtures.config { $0.set(["features", "summarize", "constraints", "mustContain"], [[:]]) }),
        ("unknown privacy class", Fixtures.config { $0.set(["features", "summarize", "privacy"], "secret") }),
        ("priority null", Fixtures.config { $0.set(["features", "summarize", "priority"], .null) }),
        ("fractional integer", Fixtures.config { $0.set(["features", "summarize", "deadlineMs"], 2.5) }),
        ("variants missing", Fixtures.config { $0.set(["features", "summarize", "variants"], nil) }),
        ("inputs holding a number", Fixtures.config { $0.set(["features", "summarize", "inputs"], ["input", 2]) }),
        ("unsupported schema keyword", Fixtures.config {
            $0.set(["features", "extract", "outputSchema", "properties", "email", "unevaluatedItems"], false)
        }),
        ("events not an object", Fixtures.config { $0.set(["features", "summarize", "events"], true) }),
        ("model kind unknown", Fixtures.config { $0.set(["models", "local-smollm2", "kind"], "telepathy") }),
    ]

    private static func tree(_ data: Data) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: valid.map(\.0))
    func fastPathEqualsDecodable(_ name: String) throws {
        let data = try #require(Self.valid.first { $0.0 == name }?.1)
        let slow = try JSONDecoder().decode(HybridConfigDocument.self, from: data)
        let fast = try HybridConfigDocument(tree: Self.tree(data))
        #expect(fast == slow)
        #expect(fast.encodedJSON() == slow.encodedJSON())
    }

    @Test("an unknown key is skipped, as Decodable skips it, and reported as a warning")
    func unknownKeysAreSkippedAndWarnedAbout() throws {
        let data = Fixtures.config {
            $0.set(["features", "summarize", "futureField"], 1)
            $0.set(["features", "summarize", "variants", "bullet", "futureField"], true)
        }
        let slow = try JSONDecoder().decode(HybridConfigDocument.self, from: data)
        #expect(try HybridConfigDocument(tree: Self.tree(data)) == slow)
        #expect(try ConfigValidator.decode(data) == slow)
        let loaded = try ConfigValidator.load(data)
        #expect(loaded.warnings.map(\.path).contains("features.summarize.futureField"))
    }

    @Test(arguments: refused.map(\.0))
    func fastPathRefusesWhatDecodableRefuses(_ name: String) throws {
        let data = try #require(Self.refused.first { $0.0 == name }?.1)
        #expect((try? JSONDecoder().decode(HybridConfigDocument.self, from: data)) == nil)
        let tree = try Self.tree(data)
        do {
            _ = try HybridConfigDocument(tree: tree)
            Issue.record("\(name): the reader accepted it")
        } catch {
            // Every refusal names the member at fault, below the feature or model that holds it.
            #expect(!error.issues.isEmpty)
            #expect(error.issues.allSatisfy { $0.path.hasPrefix("features.") || $0.path.hasPrefix("models.") }, "\(error.issues)")
        }
    }
}
