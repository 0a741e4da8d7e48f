extension SecretScanner {
    /// A token rule: a provider prefix, then at least `minimumRest` token bytes (exactly, when `exactRest`).
    struct PrefixRule {
        var prefix: [UInt8]
        var minimumRest: Int
        var exactRest: Bool = false
        var uppercaseOnly: Bool = false
        var needsLettersAndDigits: Bool = false
        var kind: String

        init(_ prefix: String, rest: Int, exact: Bool = false, uppercase: Bool = false, mixed: Bool = false, _ kind: String) {
            self.prefix = Array(prefix.utf8)
            self.minimumRest = rest
            self.exactRest = exact
            self.uppercaseOnly = uppercase
            self.needsLettersAndDigits = mixed
            self.kind = kind
        }
    }

    /// Most specific first: `sk-ant-` before `sk-`.
    static let prefixRules: [PrefixRule] = [
        PrefixRule("sk-ant-", rest: 20, "an Anthropic API key (sk-ant-…)"),
        PrefixRule("sk-proj-", rest: 20, mixed: true, "an OpenAI project API key (sk-proj-…)"),
        PrefixRule("sk-svcacct-", rest: 20, mixed: true, "an OpenAI service-account key (sk-svcacct-…)"),
        PrefixRule("sk-admin-", rest: 20, mixed: true, "an OpenAI admin key (sk-admin-…)"),
        PrefixRule("sk-", rest: 20, mixed: true, "an OpenAI API key (sk-…)"),
        PrefixRule("AIza", rest: 35, "a Google API key (AIza…)"),
        PrefixRule("AKIA", rest: 16, exact: true, uppercase: true, "an AWS access key id (AKIA…)"),
        PrefixRule("ASIA", rest: 16, exact: true, uppercase: true, "an AWS temporary access key id (ASIA…)"),
        PrefixRule("github_pat_", rest: 22, "a GitHub token (github_pat_…)"),
        PrefixRule("ghp_", rest: 30, "a GitHub token (ghp_…)"),
        PrefixRule("gho_", rest: 30, "a GitHub token (gho_…)"),
        PrefixRule("ghu_", rest: 30, "a GitHub token (ghu_…)"),
        PrefixRule("ghs_", rest: 30, "a GitHub token (ghs_…)"),
        PrefixRule("ghr_", rest: 30, "a GitHub token (ghr_…)"),
        PrefixRule("glpat-", rest: 20, "a GitLab token (glpat-…)"),
        PrefixRule("xoxb-", rest: 10, "a Slack token (xoxb-…)"),
        PrefixRule("xoxp-", rest: 10, "a Slack token (xoxp-…)"),
        PrefixRule("xoxa-", rest: 10, "a Slack token (xoxa-…)"),
        PrefixRule("xoxs-", rest: 10, "a Slack token (xoxs-…)"),
        PrefixRule("hf_", rest: 30, mixed: true, "a Hugging Face token (hf_…)"),
        PrefixRule("sk_live_", rest: 16, "a Stripe secret key (sk_live_…)"),
        PrefixRule("rk_live_", rest: 16, "a Stripe restricted key (rk_live_…)"),
    ]

    /// URL query parameters that carry a credential (compared lower-cased).
    static let credentialQueryNames: Set<String> = [
        "key", "api_key", "apikey", "api-key", "access_token", "token", "auth", "auth_token", "secret",
        "client_secret", "password", "x-amz-signature", "x-goog-signature", "signature", "sig",
    ]

    /// One pass over a string's bytes; see ``SecretScanner`` for the rules. Works on the string's own UTF-8
    /// storage and looks closer only at tokens whose first byte can start a credential, so the common string (a
    /// prompt, a model name) costs one loop over its bytes and no allocation.
    struct ByteScanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var found: [Match] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// Shorter strings cannot hold any credential the rules know (`AKIA…` is 20 bytes, `xoxb-…` 15).
        static let shortestCandidate = 12

        mutating func scan() -> [Match] {
            guard bytes.count >= Self.shortestCandidate else { return [] }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ":"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                    index = urlCredentials(afterScheme: index)
                    continue
                }
                guard Self.isTokenByte(byte) else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < bytes.count, Self.isTokenByte(bytes[end]) { end += 1 }
                index = Self.mayStartCredential(byte) ? classify(index..<end) : end
            }
            guard found.count > 1 else { return found }
            // Stable: where two rules start at the same byte, the one found first names it.
            let ordered = found.enumerated().sorted {
                ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
            }
            return Self.withoutOverlaps(ordered.map(\.element))
        }

        /// First bytes of every prefix rule, `eyJ`, `Bearer`/`Basic` and `-----BEGIN`.
        static func mayStartCredential(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "s"), UInt8(ascii: "A"), UInt8(ascii: "g"), UInt8(ascii: "x"), UInt8(ascii: "h"),
                 UInt8(ascii: "r"), UInt8(ascii: "e"), UInt8(ascii: "B"), UInt8(ascii: "b"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }

        /// Looks at one token and returns where scanning continues (past anything it consumed). Each rule is tried
        /// only on tokens long enough and starting with the right byte: most words reach none of them.
        private mutating func classify(_ token: Range<Int>) -> Int {
            let first = bytes[token.lowerBound]
            if token.count >= Self.shortestPrefixedToken, let rule = SecretScanner.prefixRules.first(where: { matches($0, token) }) {
                found.append(Match(kind: rule.kind, range: token))
                return token.upperBound
            }
            if first == UInt8(ascii: "e"), let jwt = jsonWebToken(startingAt: token) {
                found.append(Match(kind: "a JSON Web Token (eyJ…)", range: jwt))
                return jwt.upperBound
            }
            if first | 0x20 == UInt8(ascii: "b"), let credential = schemeCredential(after: token) {
                found.append(credential)
                return credential.range.upperBound
            }
            if first == UInt8(ascii: "-"), let key = privateKey(startingAt: token) {
                found.append(key)
                return key.range.upperBound
            }
            return token.upperBound
        }

        /// The shortest token a prefix rule accepts (`xoxb-` and 10 more).
        static let shortestPrefixedToken = SecretScanner.prefixRules.map { $0.prefix.count + $0.minimumRest }.min() ?? 0

        private func matches(_ rule: PrefixRule, _ token: Range<Int>) -> Bool {
            guard hasPrefix(rule.prefix, at: token.lowerBound) else { return false }
            let rest = bytes[(token.lowerBound + rule.prefix.count)..<token.upperBound]
            guard rule.exactRest ? rest.count == rule.minimumRest : rest.count >= rule.minimumRest else { return false }
            if rule.uppercaseOnly, !rest.allSatisfy({ Self.isUpper($0) || Self.isDigit($0) }) { return false }
            if rule.needsLettersAndDigits, !(rest.contains(where: Self.isDigit) && rest.contains(where: Self.isLetter)) {
                return false
            }
            return true
        }

        private func hasPrefix(_ prefix: [UInt8], at start: Int) -> Bool {
            guard start + prefix.count <= bytes.count else { return false }
            for offset in prefix.indices where bytes[start + offset] != prefix[offset] { return false }
            return true
        }

        /// `eyJ….eyJ….signature`: three base64url parts, the first two JSON objects.
        private func jsonWebToken(startingAt token: Range<Int>) -> Range<Int>? {
            guard token.count >= 10, hasPrefix(Self.jwtPrefix, at: token.lowerBound) else { return nil }
            var end = token.upperBound
            for part in 0..<2 {
                guard end < bytes.count, bytes[end] == UInt8(ascii: ".") else { return nil }
                var next = end + 1
                while next < bytes.count, Self.isTokenByte(bytes[next]) { next += 1 }
                let length = next - end - 1
                if part == 0 && !(hasPrefix(Self.jwtPrefix, at: end + 1) && length >= 10) { return nil }
                if part == 1 && length < 10 { return nil }
                end = next
            }
            return token.lowerBound..<end
        }

        /// `Bearer <token>` or `Basic <base64>`: the credential after the scheme word.
        private func schemeCredential(after token: Range<Int>) -> Match? {
            let isBearer = Self.equalsIgnoringCase(bytes[token], "bearer")
            guard isBearer || Self.equalsIgnoringCase(bytes[token], "basic") else { return nil }
            var start = token.upperBound
            guard start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") else { return nil }
            while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            var end = start
            while end < bytes.count, Self.isCredentialByte(bytes[end]) { end += 1 }
            let credential = bytes[start..<end]
            // A real token is long and mixes digits in; "Bearer authentication" or "basic understanding" is prose.
            guard credential.count >= 16, credential.contains(where: Self.isDigit) else { return nil }
            return Match(kind: isBearer ? "a bearer token (Bearer …)" : "basic-auth credentials (Basic …)", range: start..<end)
        }

        /// `-----BEGIN … PRIVATE KEY-----` up to its END line (or the end of the text).
        private func privateKey(startingAt token: Range<Int>) -> Match? {
            guard hasPrefix(Self.pemBegin, at: token.lowerBound),
                  let marker = Self.find(Array("PRIVATE KEY-----".utf8), in: bytes, from: token.lowerBound),
                  marker - token.lowerBound < 64 else { return nil }
            let end = Self.find(Array("-----END ".utf8), in: bytes, from: marker).flatMap { endStart in
                Self.find(Array("-----".utf8), in: bytes, from: endStart + 9).map { $0 + 5 }
            } ?? bytes.count
            return Match(kind: "a PEM private key (-----BEGIN … PRIVATE KEY-----)", range: token.lowerBound..<end)
        }

        /// At `://`: a password in the authority, known keys anywhere in the URL and credential-named query
        /// parameters with a real value; returns where the URL ends.
        private mutating func urlCredentials(afterScheme colon: Int) -> Int {
            var end = colon + 3
            while end < bytes.count, !Self.endsURL(bytes[end]) { end += 1 }
            let url = (colon + 3)..<end
            userinfoPassword(in: url)
            // Token rules first: where a parameter holds a known key (`?key=AIza…`), its kind names the finding.
            var inner = ByteScanner(UnsafeBufferPointer(rebasing: bytes[url]))
            found += inner.tokens().map { match in
                Match(kind: match.kind, range: (match.range.lowerBound + url.lowerBound)..<(match.range.upperBound + url.lowerBound))
            }
            queryCredentials(in: url)
            return end
        }

        /// The token rules alone, for the inside of a URL.
        private mutating func tokens() -> [Match] {
            var index = 0
            while index < bytes.count {
                guard Self.isTokenByte(bytes[index]) else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < bytes.count, Self.isTokenByte(bytes[end]) { end += 1 }
                index = Self.mayStartCredential(bytes[index]) ? classify(index..<end) : end
            }
            return found
        }

        private mutating func userinfoPassword(in url: Range<Int>) {
            var authorityEnd = url.lowerBound
            while authorityEnd < url.upperBound, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[authorityEnd]) {
                authorityEnd += 1
            }
            guard let at = bytes[url.lowerBound..<authorityEnd].lastIndex(of: UInt8(ascii: "@")),
                  let colon = bytes[url.lowerBound..<at].firstIndex(of: UInt8(ascii: ":")), at - colon > 1 else { return }
            found.append(Match(kind: "a password in a URL (user:…@host)", range: (colon + 1)..<at))
        }

        private mutating func queryCredentials(in url: Range<Int>) {
            guard let question = bytes[url].firstIndex(of: UInt8(ascii: "?")) else { return }
            var position = question + 1
            while position < url.upperBound {
                var end = position
                while end < url.upperBound, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "#") { end += 1 }
                if let equals = bytes[position..<end].firstIndex(of: UInt8(ascii: "=")) {
                    let name = String(decoding: bytes[position..<equals], as: UTF8.self).lowercased()
                    let value = String(decoding: bytes[(equals + 1)..<end], as: UTF8.self)
                    if SecretScanner.credentialQueryNames.contains(name), value.utf8.count >= 8,
                       !SecretScanner.isPlaceholder(value) {
                        found.append(Match(kind: "a credential in the URL query parameter \"\(name)\"", range: (equals + 1)..<end))
                    }
                }
                if end < url.upperBound, bytes[end] == UInt8(ascii: "#") { break }
                position = end + 1
            }
        }

        // MARK: Bytes

        static func isTokenByte(_ b: UInt8) -> Bool { isLetter(b) || isDigit(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") }
        static func isLetter(_ b: UInt8) -> Bool { isUpper(b) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) }
        static func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        static func isCredentialByte(_ b: UInt8) -> Bool {
            isTokenByte(b) || [UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(b)
        }
        static func endsURL(_ b: UInt8) -> Bool {
            b <= 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                || b == UInt8(ascii: "`") || b == UInt8(ascii: ")")
        }

        static let jwtPrefix = Array("eyJ".utf8)
        static let pemBegin = Array("-----BEGIN ".utf8)

        static func equalsIgnoringCase(_ slice: Slice<UnsafeBufferPointer<UInt8>>, _ word: StaticString) -> Bool {
            guard slice.count == word.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            return zip(slice, expected).allSatisfy { ($0 | 0x20) == $1 }
        }

        static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
            var index = start
            while index <= haystack.count - needle.count {
                if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }

        /// Rules can overlap (a `?key=AIza…` is both a Google key and a credential parameter): keep the first.
        static func withoutOverlaps(_ sorted: [Match]) -> [Match] {
            var kept: [Match] = []
            for match in sorted where kept.last.map({ $0.range.upperBound <= match.range.lowerBound }) ?? true {
                kept.append(match)
            }
            return kept
        }
    }
}
