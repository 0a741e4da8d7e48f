/// Splits prose into sentences with simple, documented rules; used for sentence-count constraints.
///
/// Rules, in order:
/// 1. A line break always ends a sentence (model output uses line breaks for lists and headings, and apps
///    render them as visible breaks).
/// 2. `.`, `!`, `?`, `…` (and runs like `?!` or `...`), optionally followed by closing quotes, brackets or
///    Markdown emphasis (`" ' ” ’ ) ] » * _`), end a sentence only when followed by white space or the end of
///    the text, so `3.5`, `U.S.A`, `example.com` and `e.g.x` never split. CJK `。！？` end a sentence anywhere.
/// 3. No split when the next word starts with a lowercase letter (`e.g. apples`, `5 p.m. today`,
///    `"Really?" she asked`).
/// 4. After a single `.`, no split when the word before it is in ``abbreviations`` (`Dr. Smith`, `e.g. Paris`),
///    is a single capital letter (the initials in `J. K. Rowling`), is a number opening its line (`1. Step`),
///    or is a number abbreviation (`no`, `vol`, `pp`, ...) followed by a digit (`No. 1`).
/// 5. Pieces without a letter or digit (a stray `...` or `—`) are not sentences.
/// Known misses: a sentence ending in an abbreviation or initial before a capitalised word ("to Plan B. Then")
/// is joined with the next; text hard-wrapped mid-sentence is over-counted.
package struct SentenceSplitter: Sendable, Hashable {
    /// Lowercased abbreviations without their final period that almost never end a sentence. Words like
    /// `etc`, `no` and `a.m` are deliberately absent: they often do end one, and rule 3 already keeps
    /// `etc. and` together.
    static let defaultAbbreviations: Set<String> = [
        "mr", "mrs", "ms", "mx", "dr", "prof", "sr", "jr", "st", "mt", "ft", "vs", "e.g", "i.e", "cf", "viz",
        "fig", "figs", "approx", "dept", "gen", "gov", "sen", "rep", "capt", "lt", "col", "sgt", "cmdr", "rev",
        "hon", "pres", "supt", "ave", "blvd",
    ]

    /// Lowercased abbreviations, without their final period, after which a `.` does not end a sentence.
    var abbreviations: Set<String>

    /// A splitter; pass a larger set for domain jargon (keep entries lowercased, without the final period).
    init(abbreviations: Set<String> = SentenceSplitter.defaultAbbreviations) {
        self.abbreviations = abbreviations
    }

    /// Abbreviations that end sentences in their own right ("He said no.") but not before a number.
    private static let numberAbbreviations: Set<String> = ["no", "nos", "vol", "p", "pp", "ch", "sec", "art", "nr"]

    // Switches rather than `Set<Character>` lookups: hashing a `Character` normalises it, and the splitter asks
    // these questions of every character of every output an eval scores.
    // An ASCII character is answered from its byte: a `Character` switch compares strings, case by case, and was
    // most of the splitter's time.
    private static func isTerminator(_ c: Character) -> Bool {
        if let ascii = c.asciiValue { return ascii == UInt8(ascii: ".") || ascii == UInt8(ascii: "!") || ascii == UInt8(ascii: "?") }
        switch c {
        case "…", "。", "！", "？": return true
        default: return false
        }
    }

    private static func isUnspacedTerminator(_ c: Character) -> Bool {
        if c.asciiValue != nil { return false }
        switch c {
        case "。", "！", "？": return true
        default: return false
        }
    }

    private static func isCloser(_ c: Character) -> Bool {
        if let ascii = c.asciiValue {
            switch ascii {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "*"), UInt8(ascii: "_"): return true
            default: return false
            }
        }
        switch c {
        case "”", "’", "»": return true
        default: return false
        }
    }

    /// The sentences of `text`, trimmed, in order.
    func sentences(in text: String) -> [String] {
        let chars = Array(text)
        var sentences: [String] = []
        forEachSentence(in: chars) { sentences.append(String(chars[$0]).trimmingWhitespace()) }
        return sentences
    }

    /// The number of sentences in `text`; the same count as `sentences(in:).count` without building the strings.
    func count(in text: String) -> Int {
        var count = 0
        forEachSentence(in: Array(text)) { _ in count += 1 }
        return count
    }

    /// Calls `body` with the range of each piece of `chars` that is a sentence (holds a letter or digit).
    private func forEachSentence(in chars: [Character], _ body: (Range<Int>) -> Void) {
        var start = 0
        func emit(upTo end: Int) {
            if chars[start..<end].contains(where: { $0.isLetter || $0.isNumber }) { body(start..<end) }
            start = end
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isNewline {
                emit(upTo: i)
                i += 1
                start = i
                continue
            }
            guard Self.isTerminator(c) else {
                i += 1
                continue
            }
            var runEnd = i
            while runEnd < chars.count, Self.isTerminator(chars[runEnd]) { runEnd += 1 }
            var closeEnd = runEnd
            while closeEnd < chars.count, Self.isCloser(chars[closeEnd]) { closeEnd += 1 }
            if isBoundary(chars, runStart: i, runEnd: runEnd, after: closeEnd) {
                emit(upTo: closeEnd)
            }
            i = closeEnd
        }
        emit(upTo: chars.count)
    }

    private func isBoundary(_ chars: [Character], runStart: Int, runEnd: Int, after: Int) -> Bool {
        if chars[runStart..<runEnd].contains(where: Self.isUnspacedTerminator) { return true }
        guard after < chars.count else { return true }
        guard chars[after].isWhitespace else { return false }
        var next = after
        while next < chars.count, chars[next].isWhitespace {
            if chars[next].isNewline { return true }
            next += 1
        }
        guard next < chars.count else { return true }
        if chars[next].isLowercase { return false }
        guard runEnd - runStart == 1, chars[runStart] == "." else { return true }

        var wordStart = runStart
        while wordStart > 0, chars[wordStart - 1].isLetter || chars[wordStart - 1].isNumber || chars[wordStart - 1] == "." {
            wordStart -= 1
        }
        let word = chars[wordStart..<runStart]
        let lowered = String(word).lowercased()
        if abbreviations.contains(lowered) { return false }
        if Self.numberAbbreviations.contains(lowered), chars[next].isNumber { return false }
        if word.count == 1, let letter = word.first, letter.isUppercase { return false }
        if !word.isEmpty, word.allSatisfy(\.isNumber) {
            var lineStart = wordStart
            while lineStart > 0, !chars[lineStart - 1].isNewline { lineStart -= 1 }
            if chars[lineStart..<wordStart].allSatisfy(\.isWhitespace) { return false }
        }
        return true
    }
}
