/// The `format` values this validator asserts (JSON Schema 2020-12's format-assertion vocabulary, for the formats
/// OpenAI Structured Outputs and Gemini document); every other `format` value is an annotation and never fails.
///
/// Each check follows the RFC the 2020-12 specification names; simplifications are listed per case.
enum StringFormat: String, Sendable, CaseIterable {
    /// RFC 3339 `date-time`: `2026-11-22T19:36:21Z`, `T`/`Z` in either case, optional fraction, offset required.
    case dateTime = "date-time"
    /// RFC 3339 `full-date`, with the real number of days in each month (leap years included).
    case date
    /// RFC 3339 `full-time`: `19:36:21+01:00`, offset required, leap second `60` allowed.
    case time
    /// ISO 8601 duration as RFC 3339 Appendix A spells it: `P3DT4H`, `PT0.5S`, `P2W`.
    case duration
    /// RFC 5321 mailbox, simplified: a dot-atom local part (quoted local parts are refused) and a hostname or
    /// `[IPv4]` / `[IPv6:…]` domain.
    case email
    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 63 / 253 characters at most.
    case hostname
    /// Dotted quad without leading zeros.
    case ipv4
    /// RFC 4291 text form, with `::` compression and an embedded IPv4 tail; zone identifiers are refused.
    case ipv6
    /// RFC 4122 `8-4-4-4-12` hexadecimal form, any case.
    case uuid
    /// RFC 3986 absolute URI: a scheme, then only URI characters with well-formed `%XX` escapes.
    case uri

    /// Whether `text` is in this format.
    func matches(_ text: String) -> Bool {
        let s = Array(text.unicodeScalars)
        switch self {
        case .dateTime: return Self.isDateTime(s)
        case .date: return Self.isDate(s[...])
        case .time: return Self.isTime(s[...])
        case .duration: return Self.isDuration(text)
        case .email: return Self.isEmail(s)
        case .hostname: return Self.isHostname(s[...])
        case .ipv4: return Self.isIPv4(s[...])
        case .ipv6: return Self.isIPv6(s[...])
        case .uuid: return Self.isUUID(s)
        case .uri: return Self.isURI(s)
        }
    }

    private typealias Scalars = ArraySlice<Unicode.Scalar>

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
    private static func isHex(_ c: Unicode.Scalar) -> Bool {
        isDigit(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c)
    }
    private static func isAlpha(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

    /// The value of exactly `count` ASCII digits at `s[start...]`, or nil.
    private static func number(_ s: Scalars, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= s.endIndex else { return nil }
        var value = 0
        for c in s[start ..< start + count] {
            guard isDigit(c) else { return nil }
            value = value * 10 + Int(c.value - 48)
        }
        return value
    }

    private static func isDateTime(_ s: [Unicode.Scalar]) -> Bool {
        guard let t = s.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
        return isDate(s[..<t]) && isTime(s[(t + 1)...])
    }

    private static func isDate(_ s: Scalars) -> Bool {
        let b = s.startIndex
        guard s.count == 10, s[b + 4] == "-", s[b + 7] == "-", let year = number(s, b, 4),
            let month = number(s, b + 5, 2), let day = number(s, b + 8, 2), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    private static func isTime(_ s: Scalars) -> Bool {
        let b = s.startIndex
        guard s.count >= 9, s[b + 2] == ":", s[b + 5] == ":", let hour = number(s, b, 2),
            let minute = number(s, b + 3, 2), let second = number(s, b + 6, 2),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var i = b + 8
        if s[i] == "." {
            let digitsStart = i + 1
            i = digitsStart
            while i < s.endIndex, isDigit(s[i]) { i += 1 }
            guard i > digitsStart else { return false }
        }
        guard i < s.endIndex else { return false }
        if s[i] == "Z" || s[i] == "z" { return i + 1 == s.endIndex }
        guard s[i] == "+" || s[i] == "-", s.endIndex - i == 6, s[i + 3] == ":",
            let offsetHour = number(s, i + 1, 2), let offsetMinute = number(s, i + 4, 2)
        else { return false }
        return offsetHour <= 23 && offsetMinute <= 59
    }

    /// ISO 8601 order (years, months, weeks, days, then `T` hours, minutes, seconds), each part optional but at
    /// least one present and at least one after `T`; only seconds may carry a fraction.
    private static func isDuration(_ text: String) -> Bool {
        text.wholeMatch(of: #/P(?!$)([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+(\.[0-9]+)?S)?)?/#) != nil
    }

    private static func isEmail(_ s: [Unicode.Scalar]) -> Bool {
        guard let at = s.lastIndex(of: "@"), at > 0, at < s.count - 1 else { return false }
        let local = s[..<at]
        let domain = s[(at + 1)...]
        let atext = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
        let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
        guard local.count <= 64,
            atoms.allSatisfy({ !$0.isEmpty && $0.allSatisfy { isAlpha($0) || isDigit($0) || atext.contains($0) } })
        else { return false }
        if domain.first == "[", domain.last == "]" {
            let literal = domain.dropFirst().dropLast()
            let tag = Array("IPv6:".unicodeScalars)
            if literal.starts(with: tag) { return isIPv6(literal.dropFirst(tag.count)) }
            return isIPv4(literal)
        }
        return isHostname(domain)
    }

    private static func isHostname(_ s: Scalars) -> Bool {
        guard !s.isEmpty, s.count <= 253 else { return false }
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { isAlpha($0) || isDigit($0) || $0 == "-" }
        }
    }

    private static func isIPv4(_ s: Scalars) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(isDigit), part.count == 1 || part.first != "0",
                let value = number(part, part.startIndex, part.count)
            else { return false }
            return value <= 255
        }
    }

    private static func isIPv6(_ s: Scalars) -> Bool {
        var text = s
        var groupsAvailable = 8
        // An embedded IPv4 address takes the place of the last two groups.
        if let lastColon = s.lastIndex(of: ":"), s[(lastColon + 1)...].contains(".") {
            guard isIPv4(s[(lastColon + 1)...]) else { return false }
            text = s[...lastColon]
            if text.count >= 2, text.suffix(2).elementsEqual("::".unicodeScalars) {
                // `::1.2.3.4`: keep the `::`.
            } else {
                text = text.dropLast()
            }
            groupsAvailable = 6
        }
        func groups(_ part: Scalars) -> Int? {
            if part.isEmpty { return 0 }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(isHex) }) else { return nil }
            return pieces.count
        }
        let doubleColon = Array("::".unicodeScalars)
        if let range = text.firstRange(of: doubleColon) {
            guard text[range.upperBound...].firstRange(of: doubleColon) == nil,
                let head = groups(text[..<range.lowerBound]), let tail = groups(text[range.upperBound...])
            else { return false }
            return head + tail < groupsAvailable
        }
        return groups(text) == groupsAvailable && !text.isEmpty
    }

    private static func isUUID(_ s: [Unicode.Scalar]) -> Bool {
        guard s.count == 36 else { return false }
        return s.enumerated().allSatisfy { i, c in [8, 13, 18, 23].contains(i) ? c == "-" : isHex(c) }
    }

    private static func isURI(_ s: [Unicode.Scalar]) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon > 0, isAlpha(s[0]),
            s[1..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == "+" || $0 == "-" || $0 == "." })
        else { return false }
        let allowed = Set("-._~:/?#[]@!$&'()*+,;=".unicodeScalars)
        var i = colon + 1
        while i < s.count {
            let c = s[i]
            if c == "%" {
                guard i + 2 < s.count, isHex(s[i + 1]), isHex(s[i + 2]) else { return false }
                i += 3
                continue
            }
            guard isAlpha(c) || isDigit(c) || allowed.contains(c) else { return false }
            i += 1
        }
        return true
    }
}
