/// The text normalisations the scorers share, so "normalised" means the same thing in every report column.
enum TextNormalizer {
    /// Trimmed, white-space runs collapsed to one space, lowercased. Swift's `lowercased()` is not full Unicode
    /// case folding (`ß` stays `ß`), which only matters for a few non-English pairs.
    static func collapsedLowercased(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// SQuAD's `normalize_answer` as tokens: lowercase, delete punctuation (and symbols; SQuAD deletes all of
    /// ASCII `string.punctuation`, which includes symbols like `$`), drop the articles a/an/the, split on
    /// white space. Punctuation is deleted, not replaced by a space, as in SQuAD (`don't` → `dont`).
    static func squadTokens(_ text: String) -> [String] {
        if let tokens = asciiTokens(text, separator: isASCIIWhitespace, dropped: isASCIIPunctuationOrSymbol) {
            // Compared, not hashed: a `Set` lookup hashed every token of every output.
            return tokens.filter { $0 != "a" && $0 != "an" && $0 != "the" }
        }
        return squadTokensByCharacter(text)
    }

    /// ``squadTokens(_:)`` over `Character` properties: any text.
    static func squadTokensByCharacter(_ text: String) -> [String] {
        let stripped = String(text.lowercased().filter { !$0.isPunctuation && !$0.isSymbol })
        return stripped.split(whereSeparator: \.isWhitespace).map(String.init).filter { !articles.contains($0) }
    }

    /// Tokens for ROUGE as Google's `rouge-score` makes them without stemming: lowercase, every run of
    /// characters that is not a letter or digit separates tokens. (`rouge-score` keeps only ASCII `a-z0-9`;
    /// we keep Unicode letters and digits so non-English outputs are not scored as empty.)
    static func rougeTokens(_ text: String) -> [String] {
        if let tokens = asciiTokens(text, separator: { !isASCIILetterOrDigit($0) }, dropped: { _ in false }) { return tokens }
        return rougeTokensByCharacter(text)
    }

    /// ``rougeTokens(_:)`` over `Character` properties: any text.
    static func rougeTokensByCharacter(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    private static let articles: Set<String> = ["a", "an", "the"]

    /// The same tokens for all-ASCII text, from its bytes: `Character` properties (`isPunctuation`, `isWhitespace`)
    /// look up Unicode tables per character and were most of a fast eval's scoring time. Lowercased; nil when
    /// `text` has a non-ASCII byte (the `Character` path then decides).
    private static func asciiTokens(_ text: String, separator: (UInt8) -> Bool, dropped: (UInt8) -> Bool) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var tokens: [String] = []
            var token: [UInt8] = []
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if separator(byte) {
                    if !token.isEmpty { tokens.append(String(decoding: token, as: UTF8.self)) }
                    token.removeAll(keepingCapacity: true)
                } else if !dropped(byte) {
                    token.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                }
            }
            if !token.isEmpty { tokens.append(String(decoding: token, as: UTF8.self)) }
            return tokens
        }
    }

    /// Unicode `White_Space` within ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// Every printable ASCII character that is not a letter, digit or space is Unicode punctuation or a symbol.
    private static func isASCIIPunctuationOrSymbol(_ byte: UInt8) -> Bool {
        (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40) || (byte >= 0x5B && byte <= 0x60) || (byte >= 0x7B && byte <= 0x7E)
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
