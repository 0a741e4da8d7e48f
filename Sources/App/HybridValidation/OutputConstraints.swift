/// Soft constraints on a text output (length, shape, required and forbidden content), decoded from the config.
///
/// Unset fields are not checked. ``evaluate(_:splitter:)`` returns one ``ConstraintResult`` per configured key, so
/// reports show adherence constraint by constraint and every row counts one trial per output: a key with several
/// patterns (`mustContain`, `mustNotContain`) is one result that passes only when every pattern holds, and its
/// message names the patterns that did not. Measurements:
/// - sentences: ``SentenceSplitter`` (its rules are documented there);
/// - words: white-space separated tokens containing a letter or digit (`well-known` is one word, `—` none);
/// - characters: grapheme clusters (what a reader sees as characters) after trimming surrounding white space;
/// - paragraphs: non-blank lines, so a single line break already starts a new paragraph — stricter than
///   Markdown, because apps showing the text render every line break;
/// - patterns: see ``TextPattern`` (plain strings are case-insensitive whole-word phrases).
/// Decoding rejects unknown keys, so a misspelt constraint is an error rather than silently unchecked.
public struct OutputConstraints: Sendable, Hashable, Codable {
    /// Fewest sentences allowed (``SentenceSplitter`` rules).
    public var minSentences: Int?
    /// Most sentences allowed.
    public var maxSentences: Int?
    /// Fewest words allowed.
    public var minWords: Int?
    /// Most words allowed.
    public var maxWords: Int?
    /// Most characters (grapheme clusters, surrounding white space excluded) allowed.
    public var maxCharacters: Int?
    /// `true` requires at most one paragraph; `false` or nil checks nothing.
    public var singleParagraph: Bool?
    /// Each pattern must occur at least once.
    public var mustContain: [TextPattern]
    /// No pattern may occur.
    public var mustNotContain: [TextPattern]

    /// The JSON keys a constraints object may have.
    package static let supportedKeys: [String] = CodingKeys.allCases.map(\.rawValue)

    /// Constraints with the given limits; call ``validateDefinition()`` before use when they come from input.
    public init(
        minSentences: Int? = nil, maxSentences: Int? = nil, minWords: Int? = nil, maxWords: Int? = nil,
        maxCharacters: Int? = nil, singleParagraph: Bool? = nil, mustContain: [TextPattern] = [],
        mustNotContain: [TextPattern] = []
    ) {
        self.minSentences = minSentences
        self.maxSentences = maxSentences
        self.minWords = minWords
        self.maxWords = maxWords
        self.maxCharacters = maxCharacters
        self.singleParagraph = singleParagraph
        self.mustContain = mustContain
        self.mustNotContain = mustNotContain
    }

    /// Whether nothing is configured.
    package var isEmpty: Bool { self == OutputConstraints() || self == OutputConstraints(singleParagraph: false) }

    /// Throws the first definition problem: limits below 0 (or a maximum below 1), a minimum above its
    /// maximum, an empty pattern, or a regex that does not compile.
    package func validateDefinition() throws(ConstraintDefinitionError) {
        let limits: [(String, Int?, Int)] = [
            ("minSentences", minSentences, 0), ("maxSentences", maxSentences, 1), ("minWords", minWords, 0),
            ("maxWords", maxWords, 1), ("maxCharacters", maxCharacters, 1),
        ]
        for (key, value, minimumAllowed) in limits {
            if let value, value < minimumAllowed {
                throw .limitTooSmall(path: key, value: value, minimumAllowed: minimumAllowed)
            }
        }
        if let low = minSentences, let high = maxSentences, low > high {
            throw .emptyRange(path: "minSentences", minimum: low, maximumKey: "maxSentences", maximum: high)
        }
        if let low = minWords, let high = maxWords, low > high {
            throw .emptyRange(path: "minWords", minimum: low, maximumKey: "maxWords", maximum: high)
        }
        for (key, patterns) in [("mustContain", mustContain), ("mustNotContain", mustNotContain)] {
            for (i, pattern) in patterns.enumerated() {
                let path = "\(key)[\(i)]"
                switch pattern {
                case .phrase(let phrase) where phrase.allSatisfy(\.isWhitespace):
                    throw .emptyPattern(path: path)
                case .regex(let source) where source.isEmpty:
                    throw .emptyPattern(path: path + ".regex")
                case .regex(let source):
                    do {
                        _ = try pattern.compile()
                    } catch {
                        throw .invalidPattern(path: path + ".regex", pattern: source, reason: "\(error)")
                    }
                case .phrase:
                    break
                }
            }
        }
    }

    /// One result per configured constraint key, in a fixed order: sentences, words, characters, paragraph,
    /// `must_contain`, `must_not_contain`; never two results under one name. An invalid regex (see
    /// ``validateDefinition()``) matches nothing.
    package func evaluate(_ text: String, splitter: SentenceSplitter = SentenceSplitter()) -> [ConstraintResult] {
        var results: [ConstraintResult] = []
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        func atLeast(_ name: String, _ observed: Int, _ limit: Int?, _ unit: String) {
            guard let limit else { return }
            let passed = observed >= limit
            results.append(
                ConstraintResult(
                    name: name, passed: passed, observed: .int(observed), limit: .int(limit),
                    message: "\(plural(observed, unit)), at least \(limit) required"))
        }
        func atMost(_ name: String, _ observed: Int, _ limit: Int?, _ unit: String) {
            guard let limit else { return }
            let passed = observed <= limit
            results.append(
                ConstraintResult(
                    name: name, passed: passed, observed: .int(observed), limit: .int(limit),
                    message: "\(plural(observed, unit)), at most \(limit) allowed"))
        }

        if minSentences != nil || maxSentences != nil {
            let sentences = splitter.count(in: text)
            atLeast("min_sentences", sentences, minSentences, "sentence")
            atMost("max_sentences", sentences, maxSentences, "sentence")
        }
        if minWords != nil || maxWords != nil {
            let words = Self.wordCount(text)
            atLeast("min_words", words, minWords, "word")
            atMost("max_words", words, maxWords, "word")
        }
        if maxCharacters != nil { atMost("max_characters", text.trimmingWhitespace().count, maxCharacters, "character") }
        if singleParagraph == true {
            let paragraphs = Self.paragraphCount(text)
            results.append(
                ConstraintResult(
                    name: "single_paragraph", passed: paragraphs <= 1, observed: .int(paragraphs), limit: .int(1),
                    message: paragraphs <= 1
                        ? "single paragraph" : "\(paragraphs) paragraphs (lines), expected one without line breaks"))
        }
        if !mustContain.isEmpty { results.append(Self.mustContainResult(mustContain, in: text)) }
        if !mustNotContain.isEmpty { results.append(Self.mustNotContainResult(mustNotContain, in: text)) }
        return results
    }

    /// `must_contain` over every pattern: passes when each occurs; observed is how many patterns occurred.
    /// The limit is the pattern (one) or the list of patterns (several), as reports show it.
    static func mustContainResult(_ patterns: [TextPattern], in text: String) -> ConstraintResult {
        let missing = patterns.filter { $0.matches(in: text).isEmpty }
        let message: String
        if missing.isEmpty {
            message = "contains " + Self.listed(patterns)
        } else if patterns.count == 1 {
            message = "does not contain \(patterns[0])"
        } else {
            message = "does not contain \(Self.listed(missing)) (\(missing.count) of \(patterns.count) patterns missing)"
        }
        return ConstraintResult(
            name: "must_contain", passed: missing.isEmpty, observed: .int(patterns.count - missing.count),
            limit: Self.limit(patterns), message: message)
    }

    /// `must_not_contain` over every pattern: passes when none occurs; observed is the total number of matches,
    /// and a failure names each pattern that matched with its first match.
    static func mustNotContainResult(_ patterns: [TextPattern], in text: String) -> ConstraintResult {
        var matchCount = 0
        var found: [String] = []
        for pattern in patterns {
            let matches = pattern.matches(in: text)
            guard let firstMatch = matches.first else { continue }
            matchCount += matches.count
            let first = JSONValue.string(firstMatch).compactJSON(limit: 40)
            found.append("\(pattern) \(matches.count == 1 ? "once" : "\(matches.count) times") (first: \(first))")
        }
        let message = found.isEmpty
            ? "does not contain " + (patterns.count == 1 ? patterns[0].description : "any of " + Self.listed(patterns))
            : "contains " + found.joined(separator: "; ")
        return ConstraintResult(
            name: "must_not_contain", passed: found.isEmpty, observed: .int(matchCount), limit: Self.limit(patterns),
            message: message)
    }

    private static func limit(_ patterns: [TextPattern]) -> JSONValue {
        patterns.count == 1 ? .string(patterns[0].description) : .array(patterns.map { .string($0.description) })
    }

    private static func listed(_ patterns: [TextPattern]) -> String {
        patterns.map(\.description).joined(separator: ", ")
    }

    /// White-space separated tokens that contain at least one letter or digit.
    static func wordCount(_ text: String) -> Int {
        if let count = asciiWordCount(text.utf8) { return count }
        return text.split(whereSeparator: \.isWhitespace).count { $0.contains { $0.isLetter || $0.isNumber } }
    }

    /// `wordCount` over ASCII bytes, nil for any other text. In ASCII, `Character`'s white space is tab through
    /// carriage return and space, its letters and digits are `A-Z a-z 0-9`, and `\r\n` (one `Character`) is two
    /// white-space bytes: the same words, without splitting the text into graphemes for every scored output.
    private static func asciiWordCount(_ utf8: String.UTF8View) -> Int? {
        var count = 0
        var wordHasAlphanumeric = false
        for byte in utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case 0x09...0x0D, 0x20:
                if wordHasAlphanumeric { count += 1 }
                wordHasAlphanumeric = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                wordHasAlphanumeric = true
            default:
                break
            }
        }
        return wordHasAlphanumeric ? count + 1 : count
    }

    /// Non-blank lines.
    static func paragraphCount(_ text: String) -> Int {
        text.split(whereSeparator: \.isNewline).count { !$0.allSatisfy(\.isWhitespace) }
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case minSentences, maxSentences, minWords, maxWords, maxCharacters, singleParagraph, mustContain,
            mustNotContain
    }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.container(keyedBy: AnyCodingKey.self)
        let known = Set(Self.supportedKeys)
        if let unknown = raw.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [AnyCodingKey(unknown)],
                    debugDescription: "unknown output constraint '\(unknown)' (supported: "
                        + Self.supportedKeys.joined(separator: ", ") + ")"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            minSentences: try c.decodeIfPresent(Int.self, forKey: .minSentences),
            maxSentences: try c.decodeIfPresent(Int.self, forKey: .maxSentences),
            minWords: try c.decodeIfPresent(Int.self, forKey: .minWords),
            maxWords: try c.decodeIfPresent(Int.self, forKey: .maxWords),
            maxCharacters: try c.decodeIfPresent(Int.self, forKey: .maxCharacters),
            singleParagraph: try c.decodeIfPresent(Bool.self, forKey: .singleParagraph),
            mustContain: try c.decodeIfPresent([TextPattern].self, forKey: .mustContain) ?? [],
            mustNotContain: try c.decodeIfPresent([TextPattern].self, forKey: .mustNotContain) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(minSentences, forKey: .minSentences)
        try c.encodeIfPresent(maxSentences, forKey: .maxSentences)
        try c.encodeIfPresent(minWords, forKey: .minWords)
        try c.encodeIfPresent(maxWords, forKey: .maxWords)
        try c.encodeIfPresent(maxCharacters, forKey: .maxCharacters)
        try c.encodeIfPresent(singleParagraph, forKey: .singleParagraph)
        if !mustContain.isEmpty { try c.encode(mustContain, forKey: .mustContain) }
        if !mustNotContain.isEmpty { try c.encode(mustNotContain, forKey: .mustNotContain) }
    }
}
