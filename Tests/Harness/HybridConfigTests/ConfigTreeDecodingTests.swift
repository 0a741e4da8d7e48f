import Foundation
import HybridCore
import HybridTestSupport
import Testing

@testable import HybridConfig
import HybridConfigTools
import HybridProjectTestSupport

/// The one config reader (`HybridConfigDocument(tree:)`; documents are `Encodable` only, so nothing else reads
/// them): it reads back exactly what `encodedJSON()` wrote, treats null as absent, skips unknown keys (the validator
/// warns about them) and refuses the rest naming the path.
@Suite struct ConfigTreeDecodingTests {
    /// Documents the reader must read.
    static let valid: [(String, Data)] = [
        ("bundled defaults", HybridConfigDocument.bundledDefaultsJSON),
        ("prompts/hybrid.config.json", try! Data(contentsOf: ProjectRoot.url.appendingPathComponent("prompts/hybrid.config.json"))),
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

    /// Documents the reader must refuse.
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
    func readsBackWhatItWrote(_ name: String) throws {
        let data = try #require(Self.valid.first { $0.0 == name }?.1)
        let read = try HybridConfigDocument(tree: Self.tree(data))
        let reread = try HybridConfigDocument(tree: Self.tree(read.encodedJSON()))
        #expect(reread == read)
        #expect(reread.encodedJSON() == read.encodedJSON())
    }

    @Test("null reads as an absent member: the defaults apply")
    func nullIsAbsent() throws {
        let absent = Fixtures.config { tree in
            tree.set(["description"], nil)
            tree.set(["rollouts"], nil)
            tree.set(["features", "summarize", "description"], nil)
            tree.set(["features", "summarize", "inputs"], nil)
        }
        let nulls = Fixtures.config { tree in
            tree.set(["description"], .null)
            tree.set(["rollouts"], .null)
            tree.set(["features", "summarize", "description"], .null)
            tree.set(["features", "summarize", "inputs"], .null)
        }
        let read = try HybridConfigDocument(tree: Self.tree(nulls))
        #expect(read == (try HybridConfigDocument(tree: Self.tree(absent))))
        #expect(read.features["summarize"]?.inputs == ["input"])
    }

    @Test("an unknown key is skipped and reported as a warning")
    func unknownKeysAreSkippedAndWarnedAbout() throws {
        let data = Fixtures.config {
            $0.set(["features", "summarize", "futureField"], 1)
            $0.set(["features", "summarize", "variants", "bullet", "futureField"], true)
        }
        let plain = try HybridConfigDocument(tree: Self.tree(Fixtures.config()))
        #expect(try HybridConfigDocument(tree: Self.tree(data)) == plain)
        #expect(try ConfigValidator.decode(data) == plain)
        let loaded = try ConfigValidator.load(data)
        #expect(loaded.warnings.map(\.path).contains("features.summarize.futureField"))
    }

    @Test(arguments: refused.map(\.0))
    func refusedNamingTheMember(_ name: String) throws {
        let data = try #require(Self.refused.first { $0.0 == name }?.1)
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

    /// Every string enum of the config says which values it takes, not which Swift type failed to initialise.
    @Test func anUnknownEnumValueNamesTheValuesItTakes() {
        let issues = Fixtures.errors(Fixtures.config { $0.set(["features", "summarize", "routing"], ["streaming": "sometimes"]) })
        #expect(issues.map(\.path) == ["features.summarize.routing.streaming"], "\(issues)")
        #expect(issues.first?.message == #"unknown value "sometimes"; expected one of "progressive", "buffered""#, "\(issues)")
    }
}
