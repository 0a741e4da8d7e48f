@testable import HybridConfig
import Testing

@Suite("Config error")
struct ConfigErrorTests {
    static let url = "https://c.test/c.json"
    static let issue = ConfigIssue(path: "features.summarize.priority[0]", message: "unknown model \"x\"")
    static let other = ConfigIssue(path: "version", message: "must be a positive integer")

    /// One error per kind, with the description it had when `ConfigError` was an enum: the loader's rejection reason
    /// and the CLI print these texts, so the struct must keep them word for word.
    static let described: [(ConfigError, String)] = [
        (.notJSON(detail: "unexpected end of input"), "the payload is not valid JSON (unexpected end of input)"),
        (.invalid([issue]), "invalid config: features.summarize.priority[0]: unknown model \"x\""),
        (
            .invalid([issue, other]),
            "invalid config (2 problems):\n  features.summarize.priority[0]: unknown model \"x\"\n  version: must be a positive integer"
        ),
        (.insecureSource(url: "http://c.test/c.json", reason: "plain HTTP"), "refusing config source http://c.test/c.json: plain HTTP"),
        (.fetchFailed(url: url, reason: "connection refused"), "could not fetch https://c.test/c.json: connection refused"),
        (.httpStatus(url: url, status: 500), "https://c.test/c.json answered HTTP 500; expected 200 or 304"),
        (
            .bodyTooLarge(url: url, limit: 4096),
            "https://c.test/c.json: config body larger than the limit of 4096 bytes; raise maxBodyBytes or shrink the config"
        ),
        (
            .versionRollback(offered: 3, inUse: 5),
            "offered config version 3 is lower than version 5 in use; refused as a possible rollback (allow rollbacks explicitly to accept it)"
        ),
        (
            .signatureMissing(source: url),
            "https://c.test/c.json: a signing key is configured but the payload has no signature (X-Hybrid-Signature header or detached .sig)"
        ),
        (.signatureInvalid(source: url, reason: "wrong key"), "https://c.test/c.json: signature check failed: wrong key"),
        (.invalidKey(reason: "not base64"), "unusable key: not base64"),
        (.fileAccess(path: "/tmp/c.json", reason: "permission denied"), "/tmp/c.json: permission denied"),
        (.cache(reason: "disk full"), "last-known-good cache: disk full"),
        (.firebase(path: "remote.json", reason: "no parameters"), "Firebase template remote.json: no parameters"),
    ]

    @Test("the description of every kind is unchanged", arguments: described)
    func descriptionIsUnchanged(error: ConfigError, expected: String) {
        #expect(error.description == expected)
    }

    /// Every readable property at once, so one comparison also checks that the other kinds' properties are nil.
    struct Fields: Equatable, CustomStringConvertible {
        var kind: ConfigError.Kind
        var detail: String?
        var issues: [ConfigIssue] = []
        var url: String?
        var reason: String?
        var status: Int?
        var limit: Int?
        var offered: Int?
        var inUse: Int?
        var source: String?
        var path: String?

        init(
            _ kind: ConfigError.Kind, detail: String? = nil, issues: [ConfigIssue] = [], url: String? = nil,
            reason: String? = nil, status: Int? = nil, limit: Int? = nil, offered: Int? = nil, inUse: Int? = nil,
            source: String? = nil, path: String? = nil
        ) {
            (self.kind, self.detail, self.issues, self.url, self.reason) = (kind, detail, issues, url, reason)
            (self.status, self.limit, self.offered, self.inUse, self.source, self.path) = (status, limit, offered, inUse, source, path)
        }

        init(of error: ConfigError) {
            self.init(
                error.kind, detail: error.detail, issues: error.issues, url: error.url, reason: error.reason,
                status: error.status, limit: error.limit, offered: error.offered, inUse: error.inUse,
                source: error.source, path: error.path)
        }

        var description: String { kind.description }
    }

    static let roundTrips: [(ConfigError, Fields)] = [
        (.notJSON(detail: "d"), Fields(.notJSON, detail: "d")),
        (.invalid([issue, other]), Fields(.invalid, issues: [issue, other])),
        (.insecureSource(url: "u", reason: "r"), Fields(.insecureSource, url: "u", reason: "r")),
        (.fetchFailed(url: "u", reason: "r"), Fields(.fetchFailed, url: "u", reason: "r")),
        (.httpStatus(url: "u", status: 503), Fields(.httpStatus, url: "u", status: 503)),
        (.bodyTooLarge(url: "u", limit: 10), Fields(.bodyTooLarge, url: "u", limit: 10)),
        (.versionRollback(offered: 1, inUse: 2), Fields(.versionRollback, offered: 1, inUse: 2)),
        (.signatureMissing(source: "s"), Fields(.signatureMissing, source: "s")),
        (.signatureInvalid(source: "s", reason: "r"), Fields(.signatureInvalid, reason: "r", source: "s")),
        (.invalidKey(reason: "r"), Fields(.invalidKey, reason: "r")),
        (.fileAccess(path: "p", reason: "r"), Fields(.fileAccess, reason: "r", path: "p")),
        (.cache(reason: "r"), Fields(.cache, reason: "r")),
        (.firebase(path: "p", reason: "r"), Fields(.firebase, reason: "r", path: "p")),
    ]

    @Test("each factory's values read back from kind and properties; the other kinds' properties are nil", arguments: roundTrips)
    func propertiesRoundTrip(error: ConfigError, expected: Fields) {
        #expect(Fields(of: error) == expected)
    }

    @Test func kindsAreDistinctAndNamedAsInSwift() {
        let kinds = Self.roundTrips.map(\.1.kind)
        #expect(Set(kinds).count == kinds.count)
        #expect(Set(Self.described.map(\.0.kind)) == Set(kinds))
        #expect(kinds.map(\.description) == [
            "notJSON", "invalid", "insecureSource", "fetchFailed", "httpStatus", "bodyTooLarge", "versionRollback",
            "signatureMissing", "signatureInvalid", "invalidKey", "fileAccess", "cache", "firebase",
        ])
    }

    @Test func equalityComparesKindAndValues() {
        #expect(ConfigError.cache(reason: "r") == .cache(reason: "r"))
        #expect(ConfigError.cache(reason: "r") != .invalidKey(reason: "r"))
        #expect(ConfigError.httpStatus(url: "u", status: 500) != .httpStatus(url: "u", status: 502))
        #expect(ConfigError.fileAccess(path: "p", reason: "r") != .firebase(path: "p", reason: "r"))
    }

    @Test func readingTheWayTheDocsSay() {
        let error: ConfigError = .httpStatus(url: Self.url, status: 503)
        var status: Int?
        if error.kind == .httpStatus, let code = error.status { status = code }
        #expect(status == 503)
        #expect(ConfigError.notJSON(detail: "d").issues.isEmpty)
    }
}
