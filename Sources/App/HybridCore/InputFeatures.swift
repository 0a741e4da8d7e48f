import Foundation

/// What an input rule may test about a request (the config's `inputRules`), measured by this one implementation on
/// the request as the router sees it (the variant's template filled, the conversation included), so a rule learned
/// from a run (`hybrid recommend --by-input`) selects the same requests on the device as in the harness.
///
/// Measured on the messages' UTF-8 bytes with nothing allocated, and only what the caller's rules read
/// (`Needs`): the router measures a request on every call, so each figure is its own counting loop the compiler
/// vectorises, and the pattern flags look only at the bytes that can start their pattern. "Text" below is every
/// message's content (user, assistant, tool and system messages alike); the feature's `instructions` are not input
/// and are left out of every figure but `inputTokens`.
package struct InputFeatures: Sendable, Hashable {
    /// The names a rule may test, as written in the config.
    package enum Name: String, Sendable, Hashable, CaseIterable {
        case inputTokens, inputCharacters, inputLines, turns, toolsOffered, hasCode, hasJSON, hasURL, digitShare, nonLatinShare

        /// Whether the feature is true or false rather than a number (tested with `equals: true/false`).
        package var isFlag: Bool { self == .hasCode || self == .hasJSON || self == .hasURL }
    }

    /// The request's estimated tokens, instructions included: `TokenEstimator.estimate(request)`, the figure the
    /// context-window skip compares with a model's window (without its margin).
    var inputTokens: Int
    /// Unicode scalars of the text.
    var inputCharacters: Int
    /// Lines of the text: for each message with content, one plus its line feeds.
    var inputLines: Int
    /// Messages with the user role: 1 for a plain request, more in a conversation.
    var turns: Int
    /// Tools the request offers the model.
    var toolsOffered: Int
    /// The text holds a Markdown code fence (three backticks) or at least two lines whose last non-blank character
    /// is `;`, `{` or `}`.
    var hasCode: Bool
    /// The text holds a JSON object's start: `{`, optional blanks, a double-quoted key on one line, optional blanks,
    /// `:`.
    var hasJSON: Bool
    /// The text holds `http://` or `https://` followed by a non-blank character.
    var hasURL: Bool
    /// ASCII digits over the text's non-blank scalars (blank: ASCII space, tab, line feed, carriage return); 0 for
    /// blank text.
    var digitShare: Double
    /// Letters outside the Latin script over all letters (Latin: ASCII letters, U+00C0–U+024F, U+1E00–U+1EFF,
    /// U+2C60–U+2C7F, U+A720–U+A7FF, U+AB30–U+AB6F and the fullwidth Latin letters); 0 when there is no letter.
    var nonLatinShare: Double
    /// Whether the text can be measured: some non-blank text, no NUL and under a tenth of its scalars control
    /// characters or U+FFFD (binary data pasted as text). An unmeasurable request takes the feature's own route.
    package var isMeasurable: Bool

    /// Which figures a measurement computes: the features its rules read (a figure not measured reads 0).
    package struct Needs: OptionSet, Sendable, Hashable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        /// What reading `name` takes.
        package init(_ name: Name) {
            switch name {
            case .inputTokens, .turns, .toolsOffered: self = []
            case .inputCharacters: self = Needs(rawValue: 1)
            case .inputLines: self = Needs(rawValue: 2)
            case .hasCode: self = Needs(rawValue: 4)
            case .hasJSON: self = Needs(rawValue: 8)
            case .hasURL: self = Needs(rawValue: 16)
            case .digitShare: self = Needs(rawValue: 32)
            case .nonLatinShare: self = Needs(rawValue: 64)
            }
        }

        /// Every feature (what the harness measures to learn rules).
        package static let all = Needs(rawValue: 127)
    }

    /// Measures `request`: the features `needs` names (every one by default) and whether it can be measured.
    /// `inputTokens` is the router's estimate when it has one (`promptTokens`), else computed.
    package init(_ request: GenerationRequest, needs: Needs = .all, inputTokens: Int? = nil) {
        var scan = Scan()
        for message in request.messages {
            if message.role == .user { scan.turns += 1 }
            var content = message.content
            guard !content.isEmpty else { continue }
            content.withUTF8 { scan.read($0, needs: needs) }
        }
        self.inputTokens = inputTokens ?? TokenEstimator.estimate(request)
        inputCharacters = scan.scalars
        inputLines = scan.lines
        turns = scan.turns
        toolsOffered = request.tools.count
        hasCode = scan.fence || scan.codeLines >= 2
        hasJSON = scan.json
        hasURL = scan.url
        digitShare = scan.nonBlank == 0 ? 0 : Double(scan.digits) / Double(scan.nonBlank)
        nonLatinShare = scan.letters == 0 ? 0 : Double(scan.nonLatinLetters) / Double(scan.letters)
        isMeasurable = scan.nonBlank > 0 && !scan.nul && scan.binary * 10 < scan.scalars
    }

    /// The feature as a number (flags are 1 or 0), for comparisons and for learning thresholds.
    package func value(_ name: Name) -> Double {
        switch name {
        case .inputTokens: Double(inputTokens)
        case .inputCharacters: Double(inputCharacters)
        case .inputLines: Double(inputLines)
        case .turns: Double(turns)
        case .toolsOffered: Double(toolsOffered)
        case .hasCode: hasCode ? 1 : 0
        case .hasJSON: hasJSON ? 1 : 0
        case .hasURL: hasURL ? 1 : 0
        case .digitShare: digitShare
        case .nonLatinShare: nonLatinShare
        }
    }
}

/// The counters over every message, each message's bytes read in turn.
private struct Scan {
    var scalars = 0
    var lines = 0
    var turns = 0
    var digits = 0
    var nonBlank = 0
    var letters = 0
    var nonLatinLetters = 0
    var binary = 0
    var nul = false
    var fence = false
    var codeLines = 0
    var json = false
    var url = false

    /// Measurability always (a rule never reads an unmeasurable text), the rest as `needs` says.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, needs: InputFeatures.Needs) {
        let base = ByteCount.basics(bytes)
        scalars &+= base.scalars
        nonBlank &+= base.scalars &- base.blanks
        binary &+= base.controls
        if base.controls > 0, Self.first(0, in: bytes, from: 0) != nil { nul = true }
        if base.leads > 0 {
            Self.each(0xEF, in: bytes) { i in
                if i + 2 < bytes.count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBD { binary &+= 1 }
                return false
            }
        }
        if needs.contains(.init(.inputLines)) { lines &+= 1 &+ Self.count(bytes) { $0 == 0x0A } }
        if needs.contains(.init(.digitShare)) { digits &+= Self.count(bytes) { $0 &- 0x30 < 10 } }
        if needs.contains(.init(.nonLatinShare)) { readLetters(bytes, hasNonASCII: base.leads > 0) }
        if needs.contains(.init(.hasCode)) {
            if !fence { fence = Self.hasFence(bytes) }
            codeLines &+= Self.codeLines(bytes)
        }
        if needs.contains(.init(.hasJSON)), !json { json = Self.hasJSONObject(bytes) }
        if needs.contains(.init(.hasURL)), !url { url = Self.hasURL(bytes) }
    }

    @inline(__always)
    private static func count(_ bytes: UnsafeBufferPointer<UInt8>, _ test: (UInt8) -> Bool) -> Int {
        ByteCount.count(bytes, test)
    }

    /// The first `byte` at or after `start` (`memchr`, which reads many bytes at a time).
    private static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Calls `body` with each position of `byte` in turn until it returns true.
    private static func each(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool) {
        var start = 0
        while let i = first(byte, in: bytes, from: start) {
            if body(i) { return }
            start = i + 1
        }
    }

    /// ASCII letters, then (only in text with non-ASCII) the other letters, non-Latin ones and U+FFFD.
    private mutating func readLetters(_ bytes: UnsafeBufferPointer<UInt8>, hasNonASCII: Bool) {
        letters &+= Self.count(bytes) { ($0 | 0x20) &- 0x61 < 26 }
        guard hasNonASCII else { return }
        var i = 0
        while i < bytes.count {
            guard bytes[i] >= 0x80 else { i &+= 1; continue }
            let (scalar, length) = Self.decode(bytes, at: i)
            i &+= length
            guard scalar != 0xFFFD, let s = Unicode.Scalar(scalar), s.properties.isAlphabetic else { continue }
            letters &+= 1
            if !Self.isLatin(scalar) { nonLatinLetters &+= 1 }
        }
    }

    private static func hasFence(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = false
        each(UInt8(ascii: "`"), in: bytes) { i in
            found = i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "`") && bytes[i + 2] == UInt8(ascii: "`")
            return found
        }
        return found
    }

    private static func hasJSONObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = false
        each(UInt8(ascii: "{"), in: bytes) { i in
            found = startsJSONObject(bytes, at: i)
            return found
        }
        return found
    }

    /// `http://` or `https://` followed by a non-blank byte, found from its colon.
    private static func hasURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = false
        each(UInt8(ascii: ":"), in: bytes) { i in
            guard i + 3 < bytes.count, bytes[i + 1] == UInt8(ascii: "/"), bytes[i + 2] == UInt8(ascii: "/"), !isBlank(bytes[i + 3]) else {
                return false
            }
            found = ends(bytes, at: i, with: "http") || ends(bytes, at: i, with: "https")
            return found
        }
        return found
    }

    /// Whether the bytes just before `end` spell `word`.
    private static func ends(_ bytes: UnsafeBufferPointer<UInt8>, at end: Int, with word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end >= count else { return false }
        return word.withUTF8Buffer { w in (0..<count).allSatisfy { bytes[end - count + $0] == w[$0] } }
    }

    /// Lines whose last non-blank byte is `;`, `{` or `}`.
    private static func codeLines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var lines = 0
        for end in [UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}")] {
            each(end, in: bytes) { i in
                var j = i + 1
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0D { j &+= 1 }
                if j == bytes.count || bytes[j] == 0x0A { lines &+= 1 }
                return false
            }
        }
        return lines
    }

    private static func isLatin(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00C0...0x024F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFF21...0xFF3A,
            0xFF41...0xFF5A:
            true
        default: false
        }
    }

    /// The scalar starting at `i` (a lead byte of a valid UTF-8 sequence: Swift strings are valid UTF-8) and its
    /// length in bytes.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[i])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard i + length <= bytes.count else { return (0xFFFD, bytes.count - i) }
        var scalar = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { scalar = scalar << 6 | UInt32(bytes[i + k] & 0x3F) }
        return (scalar, length)
    }

    /// `{`, blanks, `"key"` on one line, blanks, `:`; the look-ahead stops at the line's end.
    private static func startsJSONObject(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        var j = skipBlanks(bytes, from: i + 1)
        guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else { return false }
        j += 1
        while j < bytes.count, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\n") { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else { return false }
        j = skipBlanks(bytes, from: j + 1)
        return j < bytes.count && bytes[j] == UInt8(ascii: ":")
    }

    private static func skipBlanks(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var j = start
        while j < bytes.count, isBlank(bytes[j]) { j += 1 }
        return j
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}

/// Counting bytes fast: the count is kept in a byte per block of 255 bytes, so the compiler's vectorised loop holds
/// 16 or 32 counts per register; with an `Int` per byte it held 2 or 4 and ran twenty times slower (4.4 against
/// 0.23 µs for 2,000 bytes on the project's 2-core machine).
enum ByteCount {
    @inline(__always)
    static func count(_ bytes: UnsafeBufferPointer<UInt8>, _ test: (UInt8) -> Bool) -> Int {
        var total = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let end = min(n, i &+ 255)
            var block: UInt8 = 0
            while i < end {
                block &+= test(bytes[i]) ? 1 : 0
                i &+= 1
            }
            total &+= Int(block)
        }
        return total
    }

    /// What every measurement needs, in one pass: scalars (bytes that are not `10xxxxxx`), blanks (space, tab, line
    /// feed, carriage return), control characters (other C0 bytes and DEL) and the lead bytes of non-ASCII scalars.
    static func basics(_ bytes: UnsafeBufferPointer<UInt8>) -> (scalars: Int, blanks: Int, controls: Int, leads: Int) {
        var totals = (scalars: 0, blanks: 0, controls: 0, leads: 0)
        var i = 0
        let n = bytes.count
        while i < n {
            let end = min(n, i &+ 255)
            var scalars: UInt8 = 0, blanks: UInt8 = 0, controls: UInt8 = 0, leads: UInt8 = 0
            while i < end {
                let byte = bytes[i]
                let blank = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                scalars &+= byte & 0xC0 != 0x80 ? 1 : 0
                blanks &+= blank ? 1 : 0
                controls &+= (byte < 0x20 && !blank) || byte == 0x7F ? 1 : 0
                leads &+= byte >= 0xC0 ? 1 : 0
                i &+= 1
            }
            totals.scalars &+= Int(scalars)
            totals.blanks &+= Int(blanks)
            totals.controls &+= Int(controls)
            totals.leads &+= Int(leads)
        }
        return totals
    }
}
