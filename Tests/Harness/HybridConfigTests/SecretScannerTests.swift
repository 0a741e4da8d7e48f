import Foundation
@testable import HybridConfig
import HybridConfigTools
import HybridCore
import HybridTestSupport
import Testing
import HybridProjectTestSupport

/// The validator's secret scan: every string of a config, at its JSON path, never echoing the value.
@Suite("Secret scan")
struct SecretScannerTests {
    /// Made-up values with each provider's documented shape (prefix, alphabet, length); none is a real key.
    static let secrets: [(name: String, value: String, kind: String)] = [
        ("openai", "sk-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0uvwx", "OpenAI API key"),
        ("openai-project", "sk-proj-" + "Xy12Ab34Cd56Ef78Gh90Ij12Kl34Mn56Op78Qr90St12", "OpenAI project API key"),
        ("anthropic", "sk-ant-api03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEfGh", "Anthropic API key"),
        ("google", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "Google API key"),
        ("aws", "AKIA" + "IOSFODNN7EXAMPLE", "AWS access key id"),
        ("bearer", "Bearer " + "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "bearer token"),
        ("github", "ghp_" + "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "GitHub token"),
    ]

    /// Where a key pasted by mistake ends up: known fields, an unknown key, an array element, a nested header.
    static let paths: [(steps: [Step], printed: String, wrap: @Sendable (String) -> JSONValue)] = [
        (["description"], "description", { .string("Config for the beta; key \($0) for now") }),
        (["features", "summarize", "description"], "features.summarize.description", { .string($0) }),
        (["features", "summarize", "variants", "concise", "instructions"], "features.summarize.variants.concise.instructions", { .string("Be brief. \($0)") }),
        (["features", "summarize", "constraints", "mustNotContain", 0], "features.summarize.constraints.mustNotContain[0]", { .string($0) }),
        (["models", "gemini-flash", "headers"], "models.gemini-flash.headers.X-Debug", { .object(["X-Debug": .string($0)]) }),
    ]

    @Test(arguments: secrets)
    func eachKindIsFoundAtEveryPathWithoutEchoingIt(secret: (name: String, value: String, kind: String)) {
        for place in Self.paths {
            let issues = Fixtures.errors(Fixtures.config { $0.set(place.steps, place.wrap(secret.value)) })
            let found = issues.filter { $0.message.contains("looks like") }
            #expect(found.map(\.path) == [place.printed], "\(secret.name) at \(place.printed): \(issues)")
            #expect(found.first?.message.contains(secret.kind) == true, "\(found)")
            #expect(!issues.contains { $0.description.contains(secret.value) }, "the message must not echo the value")
        }
    }

    @Test func aGoogleKeyInABaseURLQueryIsFound() {
        let key = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
        let issues = Fixtures.errors(Fixtures.config {
            $0.set(["models", "gemini-flash", "baseURL"], .string("https://generativelanguage.googleapis.com/v1beta?key=\(key)"))
        })
        #expect(issues.map(\.path) == ["models.gemini-flash.baseURL"])
        #expect(!issues.contains { $0.description.contains(key) })
    }

    @Test func credentialQueryParametersAndURLPasswordsAreFound() {
        let cases: [(String, String)] = [
            ("https://example.com/v1?api_key=0123abcd4567efgh", #"URL query parameter "api_key""#),
            ("https://example.com/v1?model=x&access_token=zzz999yyy888", #"URL query parameter "access_token""#),
            ("https://bob:hunter2hunter2@example.com/v1", "password in a URL"),
        ]
        for (url, kind) in cases {
            let issues = Fixtures.errors(Fixtures.config { $0.set(["features", "summarize", "description"], .string("see \(url)")) })
            #expect(issues.map(\.path) == ["features.summarize.description"], "\(url)")
            #expect(issues.first?.message.contains(kind) == true, "\(issues)")
        }
    }

    @Test(arguments: [
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq\n-----END RSA PRIVATE KEY-----", "a PEM private key"),
        ("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "a JSON Web Token"),
        ("slack xoxb-" + "1234567890-abcdefghij", "a Slack token"),
        ("hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "a Hugging Face token"),
        ("sk_live_" + "51H8abcdefGHIJKLmnopQRST", "a Stripe secret key"),
        ("glpat-" + "xxYYzz00112233445566", "a GitLab token"),
        ("ASIA" + "ZZZZ1234567890AB", "an AWS temporary access key id"),
        ("Authorization: Basic " + "dXNlcjpwYXNzd29yZDEyMw==", "basic-auth credentials"),
    ])
    func otherCredentialShapesAreFound(text: String, kind: String) {
        let found = SecretScanner.matches(in: "see: " + text)
        #expect(found.count == 1 && found.first?.kind.hasPrefix(kind) == true, "\(found)")
    }

    @Test func credentialNamedHeadersAreFoundWhateverTheFormat() {
        let issues = Fixtures.errors(Fixtures.config {
            $0.set(["models", "openai-gpt-4o-mini", "headers"], .object(["x-api-key": "custom-format-7f3a91c2"]))
        })
        #expect(issues.filter { $0.severity == .error }.map(\.path) == ["models.openai-gpt-4o-mini.headers.x-api-key"])
    }

    /// Prose, placeholders and environment variable names are not keys.
    @Test(arguments: [
        "task-based summaries for sk-learn users",
        "Use Bearer authentication with ${OPENAI_API_KEY}",
        "https://example.com/v1?key={{apiKey}}",
        "https://example.com/v1?key=${GEMINI_API_KEY}&alt=sse",
        "AKIA is the prefix of AWS key ids",
        "Summarise the risk-assessment-2024-q3-final-report-v2 in one line.",
        "sk-this-is-not-a-key-at-all-really",
        "An eyJ-prefixed word.",
    ])
    func ordinaryTextIsNotASecret(text: String) {
        #expect(SecretScanner.matches(in: text).isEmpty, "\(SecretScanner.matches(in: text))")
        #expect(Fixtures.errors(Fixtures.config { $0.set(["features", "summarize", "description"], .string(text)) }).isEmpty)
    }

    @Test func bundledDefaultsHoldNoSecrets() throws {
        let tree = try JSONValue(parsing: String(decoding: HybridConfigDocument.bundledDefaultsJSON, as: UTF8.self))
        #expect(SecretScanner.findings(in: tree).isEmpty)
    }

    @Test func redactionReplacesOnlyTheSecret() {
        let key = "sk-proj-" + "Xy12Ab34Cd56Ef78Gh90Ij12Kl34Mn56Op78Qr90St12"
        #expect(SecretScanner.redact("key: \(key), fine") == "key: [redacted], fine")
        #expect(SecretScanner.redact("https://h/v1?key=AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q&alt=sse") == "https://h/v1?key=[redacted]&alt=sse")
        #expect(SecretScanner.redact("Authorization: Bearer abcdef0123456789abcdef") == "Authorization: Bearer [redacted]")
        #expect(SecretScanner.redact("nothing here") == "nothing here")
    }

    @Test func aSecretInATemplateFileNamesTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("summarize"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = "sk-ant-api03-" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
        try "Summarise {{input}}. Auth: \(key)".write(
            to: directory.appendingPathComponent("summarize/leaky.txt"), atomically: true, encoding: .utf8)
        let issues = Fixtures.errors(
            Fixtures.config { $0.set(["features", "summarize", "variants", "concise"], ["templateFile": "summarize/leaky.txt"]) },
            promptFiles: PromptFileResolver(directories: [directory]))
        #expect(issues.map(\.path) == ["features.summarize.variants.concise.templateFile"])
        #expect(issues.first?.message.hasPrefix("in summarize/leaky.txt: looks like an Anthropic API key") == true, "\(issues)")
    }
}

/// The load screens every string while parsing and walks the tree only when one is suspect: what the parser shows
/// the screen is the decoded text, so escapes hide nothing, and a key name is seen even when repeated everywhere.
@Suite("Secret scan while parsing")
struct SecretScreenTests {
    static let key = "sk-proj-" + "Xy12Ab34Cd56Ef78Gh90Ij12Kl34Mn56Op78Qr90St12"

    /// `data` as text with `plain` replaced by `written` (an escaped spelling JSONEncoder never produces).
    static func respelled(_ data: Data, _ plain: String, as written: String) -> Data {
        Data(String(decoding: data, as: UTF8.self).replacing(plain, with: written).utf8)
    }

    @Test func aKeyWrittenWithUnicodeEscapesIsFound() {
        let data = Fixtures.config { $0.set(["features", "summarize", "description"], .string("note " + Self.key)) }
        let hidden = Self.respelled(data, "note sk-proj-", as: #"note \u0073k\u002Dproj-"#)
        #expect(String(decoding: hidden, as: UTF8.self).contains(#"\u0073k"#))
        let issues = Fixtures.errors(hidden)
        #expect(issues.map(\.path) == ["features.summarize.description"], "\(issues)")
        #expect(issues.first?.message.contains("OpenAI project API key") == true)
    }

    @Test func aSecretInAKeyNameIsFoundEvenEscaped() {
        let data = Fixtures.config { $0.set(["models", "gemini-flash", "headers"], .object([Self.key: "yes"])) }
        let hidden = Self.respelled(data, "\"sk-proj-", as: #""\u0073k-proj-"#)
        let issues = Fixtures.errors(hidden)
        #expect(issues.map(\.path) == ["models.gemini-flash.headers." + Self.key], "\(issues)")
        #expect(issues.first?.message.contains("a key name that is an OpenAI project API key") == true, "\(issues)")
        #expect(!issues.contains { $0.message.contains(Self.key) })
    }

    @Test func aValueUnderACredentialNamedKeyIsFoundWhateverTheKeysSpelling() {
        let data = Fixtures.config {
            $0.set(["models", "openai-gpt-4o-mini", "headers"], .object(["x-api-key": .array(["custom-format-7f3a91c2"])]))
        }
        for spelling in [#""x-api-key""#, #""x\u002Dapi-key""#, #""X-Api_Key""#] {
            let issues = Fixtures.errors(Self.respelled(data, #""x-api-key""#, as: spelling))
            #expect(issues.filter { $0.severity == .error }.map(\.path).count == 1, "\(spelling): \(issues)")
            #expect(issues.first?.message.contains("the key's name says so") == true, "\(spelling): \(issues)")
        }
    }

    /// In a large document the parser's key table is in use: a suspect key repeated in many features, and a secret
    /// in the last feature only, are still found at their paths.
    @Test func secretsDeepInALargeDocumentAreFound() throws {
        let body = try GeneratedConfig.document(base: HybridConfigDocument.bundledDefaultsJSON, features: 120)
        var tree = try JSONValue(parsing: String(decoding: body, as: UTF8.self))
        #expect(Fixtures.errors(body).isEmpty)
        tree.set(["features", "generated_119", "variants", "b", "instructions"], .string("use " + Self.key))
        let issues = Fixtures.errors(tree.data)
        #expect(issues.map(\.path) == ["features.generated_119.variants.b.instructions"], "\(issues)")
    }
}
