/// Something an output must or must not contain, for ``OutputConstraints/mustContain`` and `mustNotContain`.
///
/// In JSON a plain string is a ``phrase`` and `{"regex": "…"}` is a ``regex``; both match case-insensitively.
/// A phrase is literal (so `e.g.` or `C++` need no escaping) and matches whole words only where it starts or
/// ends with a letter or digit: `fish` matches "Fish!" and "a fish tank" but not "selfish" or "fishing"
/// (write `{"regex": "fish\\w*"}` for prefixes). White space inside a phrase matches any run of white space.
public enum TextPattern: Sendable, Hashable, Codable, CustomStringConvertible {
    case phrase(String)
    case regex(String)

    private enum CodingKeys: String, CodingKey { case regex }

    public init(from decoder: any Decoder) throws {
        if let phrase = try? decoder.singleValueContainer().decode(String.self) {
            self = .phrase(phrase)
            return
        }
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { $0 != "regex" }.sorted()
        if let key = unknown.first {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath + [AnyCodingKey(key)],
                      debugDescription: "unknown key '\(key)'; a pattern is a string or {\"regex\": \"…\"}"))
        }
        self = .regex(try container.decode(String.self, forKey: AnyCodingKey("regex")))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .phrase(let phrase):
            var container = encoder.singleValueContainer()
            try container.encode(phrase)
        case .regex(let pattern):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pattern, forKey: .regex)
        }
    }

    /// `"fish"` for phrases, `/fish\w*/i` for regexes, as shown in reports.
    public var description: String {
        switch self {
        case .phrase(let phrase): JSONValue.string(phrase).compactJSON(limit: .max)
        case .regex(let pattern): "/\(pattern)/i"
        }
    }

    /// The regular expression source this pattern compiles to.
    var regexSource: String {
        switch self {
        case .regex(let pattern):
            return pattern
        case .phrase(let phrase):
            let words = phrase.split(whereSeparator: \.isWhitespace).map { Self.escape(String($0)) }
            var source = words.joined(separator: "\\s+")
            if let first = phrase.first(where: { !$0.isWhitespace }), first.isLetter || first.isNumber {
                source = "\\b" + source
            }
            if let last = phrase.last(where: { !$0.isWhitespace }), last.isLetter || last.isNumber {
                source += "\\b"
            }
            return source
        }
    }

    /// Compiles case-insensitively; throws for an invalid regex (phrases always compile).
    func compile() throws -> Regex<AnyRegexOutput> {
        try PatternCompiler.compileForText(regexSource)
    }

    /// Every match in `text`, in order.
    func matches(in text: String) -> [String] {
        if !mightMatch(text) { return [] }
        guard let regex = try? compile() else { return [] }
        return text.matches(of: regex).map { String(text[$0.range]) }
    }

    /// False only when `text` certainly holds no match: for a phrase whose first word is ASCII, in an all-ASCII
    /// text that lacks that word in any letter case. Compiling and running the regex for every output was an
    /// eighth of an eval's CPU, and most outputs hold none of the `mustNotContain` phrases. ASCII letters fold only
    /// to ASCII letters, so in ASCII text this check agrees with the case-insensitive regex.
    private func mightMatch(_ text: String) -> Bool {
        guard case .phrase(let phrase) = self, let word = Self.firstASCIIWord(phrase) else { return true }
        var text = text
        // Compared in place: copying and lowercasing the whole output for every pattern cost more than the search.
        return text.withUTF8 { haystack in
            guard haystack.allSatisfy({ $0 < 0x80 }) else { return true }
            let needle = word.utf8
            guard haystack.count >= needle.count, let first = needle.first.map(Self.asciiLowercased) else {
                return needle.isEmpty
            }
            for start in 0...(haystack.count - needle.count) where Self.asciiLowercased(haystack[start]) == first {
                if zip(haystack[start...], needle).allSatisfy({ Self.asciiLowercased($0) == Self.asciiLowercased($1) }) {
                    return true
                }
            }
            return false
        }
    }

    /// The phrase's first white-space separated word when the phrase is ASCII (where `Character`'s white space is
    /// tab through carriage return and space), else nil. Splitting the phrase into `Character`s for every output
    /// cost more than the search it guards.
    private static func firstASCIIWord(_ phrase: String) -> Substring? {
        let utf8 = phrase.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { (0x09...0x0D).contains(byte) || byte == 0x20 }
        guard let start = utf8.firstIndex(where: { !isSpace($0) }) else { return nil }
        let end = utf8[start...].firstIndex(where: isSpace) ?? utf8.endIndex
        return phrase[start..<end]
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    private static func escape(_ literal: String) -> String {
        var out = ""
        for scalar in literal.unicodeScalars {
            if "\\^$.|?*+()[]{}/-".unicodeScalars.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}

/// A coding key for any string, used to list and reject unknown keys in configs.
struct AnyCodingKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
