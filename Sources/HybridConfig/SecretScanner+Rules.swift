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

    /// One pass over a string's bytes; see ``SecretScanner`` for the rules.
    struct ByteScanner {
        let bytes: [UInt8]
        var found: [Match] = []

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func scan() -> [Match] {
            var index = 0
            while index < bytes.count {
                guard Self.isTokenByte(bytes[index]), index == 0 || !Self.isTokenByte(bytes[index - 1]) else {
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count, Self.isTokenByte(bytes[end]) { end += 1 }
                index = classify(index..<end)
            }
            scanPrivateKeys()
            scanURLCredentials()
            // Stable: where two rules start at the same byte, the token rule (found first) names it.
            let ordered = found.enumerated().sorted {
                ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
            }
            return Self.withoutOverlaps(ordered.map(\.element))
        }

        /// Looks at one token and returns where scanning continues (past anything it consumed).
        private mutating func classify(_ token: Range<Int>) -> Int {
            let slice = bytes[token]
            for rule in SecretScanner.prefixRules where slice.starts(with: rule.prefix) {
                let rest = slice.dropFirst(rule.prefix.count)
                guard rule.exactRest ? rest.count == rule.minimumRest : rest.count >= rule.minimumRest else { continue }
                if rule.uppercaseOnly, !rest.allSatisfy({ Self.isUpper($0) || Self.isDigit($0) }) { continue }
                if rule.needsLettersAndDigits, !(rest.contains(where: Self.isDigit) && rest.contains(where: Self.isLetter)) {
                    continue
                }
                found.append(Match(kind: rule.kind, range: token))
                return token.upperBound
            }
            if let jwt = jsonWebToken(startingAt: token) {
                found.append(Match(kind: "a JSON Web Token (eyJ…)", range: jwt))
                return jwt.upperBound
            }
            if let credential = schemeCredential(after: token) {
                found.append(credential)
                return credential.range.upperBound
            }
            return token.upperBound
        }

        /// `eyJ….eyJ….signature`: three base64url parts, the first two JSON objects.
        private func jsonWebToken(startingAt token: Range<Int>) -> Range<Int>? {
            guard bytes[token].starts(with: Array("eyJ".utf8)), token.count >= 10 else { return nil }
            var end = token.upperBound
            for part in 0..<2 {
                guard end < bytes.count, bytes[end] == UInt8(ascii: ".") else { return nil }
                var next = end + 1
                while next < bytes.count, Self.isTokenByte(bytes[next]) { next += 1 }
                let length = next - end - 1
                if part == 0 && !(bytes[(end + 1)...].starts(with: Array("eyJ".utf8)) && length >= 10) { return nil }
                if part == 1 && length < 10 { return nil }
                end = next
            }
            return token.lowerBound..<end
        }

        /// `Bearer <token>` or `Basic <base64>`: the credential after the scheme word.
        private func schemeCredential(after token: Range<Int>) -> Match? {
            let word = String(decoding: bytes[token], as: UTF8.self).lowercased()
            guard word == "bearer" || word == "basic" else { return nil }
            var start = token.upperBound
            guard start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") else { return nil }
            while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            var end = start
            while end < bytes.count, Self.isCredentialByte(bytes[end]) { end += 1 }
            let credential = bytes[start..<end]
            // A real token is long and mixes digits in; "Bearer authentication" or "basic understanding" is prose.
            guard credential.count >= 16, credential.contains(where: Self.isDigit) else { return nil }
            return Match(kind: word == "bearer" ? "a bearer token (Bearer …)" : "basic-auth credentials (Basic …)", range: start..<end)
        }

        private mutating func scanPrivateKeys() {
            let begin = Array("-----BEGIN ".utf8)
            var index = 0
            while let start = Self.find(begin, in: bytes, from: index) {
                guard let marker = Self.find(Array("PRIVATE KEY-----".utf8), in: bytes, from: start),
                      marker - start < 64 else {
                    index = start + begin.count
                    continue
                }
                let endMarker = Self.find(Array("-----END ".utf8), in: bytes, from: marker).flatMap { endStart in
                    Self.find(Array("-----".utf8), in: bytes, from: endStart + 9).map { $0 + 5 }
                } ?? bytes.count
                found.append(Match(kind: "a PEM private key (-----BEGIN … PRIVATE KEY-----)", range: start..<endMarker))
                index = endMarker
            }
        }

        /// `scheme://user:password@host` and credential-named query parameters with a real value.
        private mutating func scanURLCredentials() {
            var index = 0
            while let scheme = Self.find(Array("://".utf8), in: bytes, from: index) {
                var end = scheme + 3
                while end < bytes.count, !Self.endsURL(bytes[end]) { end += 1 }
                userinfoPassword(in: (scheme + 3)..<end)
                queryCredentials(in: (scheme + 3)..<end)
                index = end
            }
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

        static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
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
