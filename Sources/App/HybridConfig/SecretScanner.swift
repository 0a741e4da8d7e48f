import Foundation
import HybridCore

/// Finds strings that look like credentials anywhere in a config, so a key pasted into a description, a URL's query,
/// a header or a prompt is refused before it is published to every app, and so `hybrid config show` can redact it.
///
/// Recognised: OpenAI (`sk-…`, `sk-proj-…`), Anthropic (`sk-ant-…`), Google (`AIza…`), AWS access key ids
/// (`AKIA…`/`ASIA…`), GitHub, GitLab, Slack, Hugging Face and Stripe tokens, JSON Web Tokens, `Bearer`/`Basic`
/// credentials, PEM private keys, credential query parameters (`?key=…`, `access_token=…`), passwords in URLs, and
/// values of credential-named keys (`"x-api-key": "…"`). Each rule wants the provider's prefix *and* a length (and
/// for `sk-` a mix of letters and digits), and placeholders (`${OPENAI_API_KEY}`, `{{token}}`, `<key>`, an
/// environment variable's name) never count, which keeps prose like "task-based" or "sk-learn" from matching.
/// The scan works on UTF-8 bytes without regular expressions: it runs on every config an app loads.
package enum SecretScanner {
    /// A credential-looking value at a JSON path; it never carries the value itself.
    struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// Where it is, e.g. `models.gemini.baseURL` or `features.summarize.variants.terse.templateFile`.
        var path: String
        /// What it looks like, e.g. `an OpenAI API key (sk-proj-…)`.
        var kind: String

        /// A finding; the value itself is deliberately not part of it.
        init(path: String, kind: String) {
            self.path = path
            self.kind = kind
        }

        package var description: String { "\(path): \(kind)" }
    }

    /// One credential inside a string: what it looks like and where (UTF-8 offsets), for redaction.
    struct Match: Sendable, Hashable {
        /// What it looks like.
        var kind: String
        /// Byte offsets into the string's UTF-8 view.
        var range: Range<Int>
    }

    /// Every credential-looking string in `value`, keys and values, at its JSON path under `path`, sorted by path.
    static func findings(in value: JSONValue, at path: ConfigPath = .root) -> [Finding] {
        var found: [Finding] = []
        var components = path.components
        components.reserveCapacity(components.count + 16)
        collect(value, &components, credentialKey: false, into: &found)
        return found.sorted { $0.path < $1.path }
    }

    /// Findings in one string (a template file's text, say) reported at `path`.
    static func findings(inText text: String, at path: ConfigPath) -> [Finding] {
        matches(in: text).map { Finding(path: path.description, kind: $0.kind) }
    }

    /// Every credential-looking span of `text`, in order, not overlapping.
    static func matches(in text: String) -> [Match] {
        guard text.utf8.count >= ByteScanner.shortestCandidate else { return [] }
        var text = text
        // Native strings are contiguous UTF-8; `makeContiguousUTF8` only copies bridged or foreign ones.
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var scanner = ByteScanner(bytes)
            return scanner.scan()
        } ?? []
    }

    /// `text` with every credential-looking span replaced by `[redacted]`, e.g. for printing a config.
    package static func redact(_ text: String) -> String {
        let found = matches(in: text)
        guard !found.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        for match in found {
            out += bytes[position..<match.range.lowerBound]
            out += Array("[redacted]".utf8)
            position = match.range.upperBound
        }
        out += bytes[position...]
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Tree walk

    /// Walks the tree with one path stack: a `ConfigPath` is built only for a finding, since a config is scanned on
    /// every load and almost never has one.
    private static func collect(
        _ value: JSONValue, _ path: inout [ConfigPath.Component], credentialKey: Bool, into found: inout [Finding]
    ) {
        switch value {
        case .string(let text):
            // Findings are rare: nothing is mapped or appended unless a string has one.
            let inText = matches(in: text)
            if !inText.isEmpty {
                found += inText.map { Finding(path: ConfigPath(path).description, kind: $0.kind) }
            } else if credentialKey && looksLikeCredentialValue(text) {
                found.append(Finding(path: ConfigPath(path).description, kind: "a credential (the key's name says so)"))
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                collect(element, &path, credentialKey: credentialKey, into: &found)
                path.removeLast()
            }
        case .object(let members):
            for (key, member) in members {
                path.append(.key(key))
                let inKey = matches(in: key)
                if !inKey.isEmpty {
                    found += inKey.map { Finding(path: ConfigPath(path).description, kind: "a key name that is " + $0.kind) }
                }
                let credential: Bool = switch member {
                case .string, .array: isCredentialName(key)
                default: false
                }
                collect(member, &path, credentialKey: credential, into: &found)
                path.removeLast()
            }
        default:
            break
        }
    }

    /// Header and field names that hold a credential themselves (not the *name* of one, like `apiKeyEnv`). Bare
    /// `key`, `token` and `secret` are left out: schemas and options use them for ordinary values.
    ///
    /// Called for every key of every config loaded, so ASCII keys (all of them in practice) are compared byte by
    /// byte, folded on the fly, against the names of the same folded length: no string is built or hashed.
    static func isCredentialName(_ key: String) -> Bool {
        isASCIICredentialName(key.utf8) ?? credentialNames.contains(String(key.lowercased().filter { $0 != "-" && $0 != "_" }))
    }

    /// Whether a string of a document, seen as the parser reads it, could give ``findings(in:at:)`` anything to
    /// report: a credential-looking span, or (for a key) a credential name or a name that is not ASCII. False means
    /// the tree walk would find nothing there, so a document whose every string says false needs no walk.
    static func mayHaveFindings(_ bytes: UnsafeBufferPointer<UInt8>, isKey: Bool) -> Bool {
        if bytes.count >= ByteScanner.shortestCandidate {
            var scanner = ByteScanner(bytes)
            if !scanner.scan().isEmpty { return true }
        }
        return isKey && isASCIICredentialName(bytes) != false
    }

    /// ``isCredentialName(_:)`` for ASCII names; nil when `bytes` are not all ASCII.
    private static func isASCIICredentialName(_ bytes: some Sequence<UInt8>) -> Bool? {
        var length = 0
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            if byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") { length += 1 }
        }
        return credentialNameBytes.contains { $0.count == length && foldedEquals(bytes, $0) }
    }

    /// `key` lower-cased without `-` and `_` equals `name` (ASCII, same length checked by the caller).
    private static func foldedEquals(_ key: some Sequence<UInt8>, _ name: [UInt8]) -> Bool {
        var position = 0
        for byte in key where byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard folded == name[position] else { return false }
            position += 1
        }
        return true
    }

    private static let credentialNameBytes = credentialNames.map { Array($0.utf8) }

    private static let credentialNames: Set<String> = [
        "authorization", "proxyauthorization", "xapikey", "apikey", "xgoogapikey", "accesstoken", "authtoken",
        "bearertoken", "idtoken", "refreshtoken", "password", "passwd", "clientsecret",
        "privatekey", "secretkey", "secretaccesskey", "sessiontoken",
    ]

    /// A value under a credential-named key that is a real value: not empty, not a placeholder, not an
    /// environment variable's name, at least 8 characters.
    static func looksLikeCredentialValue(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count >= 8, !isPlaceholder(trimmed) else { return false }
        return !trimmed.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    static func isPlaceholder(_ text: String) -> Bool {
        text.hasPrefix("$") || text.hasPrefix("<") || text.contains("{{") || text.contains("${")
            || text.allSatisfy { $0 == "*" || $0 == "x" || $0 == "X" || $0 == "." || $0 == "…" }
    }
}
