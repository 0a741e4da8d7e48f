/// What an input rule may test about a request (the config's `inputRules`), measured by this one implementation on
/// the request as the router sees it (the variant's template filled, the conversation included), so a rule learned
/// from a run (`hybrid recommend --by-input`) selects the same requests on the device as in the harness.
///
/// Measured in one pass over the messages' UTF-8 bytes with nothing allocated. "Text" below is every message's
/// content (user, assistant, tool and system messages alike); the feature's `instructions` are not input and are
/// left out of every figure but `inputTokens`.
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

    /// Measures `request`.
    package init(_ request: GenerationRequest) {
        var scan = Scan()
        for message in request.messages {
            if message.role == .user { scan.turns += 1 }
            var content = message.content
            guard !content.isEmpty else { continue }
            scan.lines += 1
            content.withUTF8 { scan.read($0) }
        }
        inputTokens = TokenEstimator.estimate(request)
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

/// The one pass's counters: kept across messages, each message's bytes read in turn.
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

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
        var backticks = 0
        var lastNonBlank: UInt8 = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let byte = bytes[i]
            if byte < 0x80 {
                scalars &+= 1
                readASCII(byte, at: i, in: bytes, backticks: &backticks, lastNonBlank: &lastNonBlank)
                i &+= 1
            } else {
                let (scalar, length) = Self.decode(bytes, at: i)
                scalars &+= 1
                nonBlank &+= 1
                readNonASCII(scalar)
                backticks = 0
                lastNonBlank = 0x80
                i &+= length
            }
        }
        if Self.endsCode(lastNonBlank) { codeLines &+= 1 }
    }

    private mutating func readASCII(
        _ byte: UInt8, at i: Int, in bytes: UnsafeBufferPointer<UInt8>, backticks: inout Int, lastNonBlank: inout UInt8
    ) {
        backticks = byte == UInt8(ascii: "`") ? backticks &+ 1 : 0
        if backticks >= 3 { fence = true }
        switch byte {
        case UInt8(ascii: "\n"):
            lines &+= 1
            if Self.endsCode(lastNonBlank) { codeLines &+= 1 }
            lastNonBlank = 0
            return
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            return
        default:
            break
        }
        nonBlank &+= 1
        lastNonBlank = byte
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digits &+= 1
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            letters &+= 1
            if byte == UInt8(ascii: "h") && !url { url = Self.startsURL(bytes, at: i) }
        case 0: nul = true
        case 1..<0x20, 0x7F: binary &+= 1
        case UInt8(ascii: "{") where !json: json = Self.startsJSONObject(bytes, at: i)
        default: break
        }
    }

    private mutating func readNonASCII(_ scalar: UInt32) {
        if scalar == 0xFFFD { binary &+= 1; return }
        guard let s = Unicode.Scalar(scalar), s.properties.isAlphabetic else { return }
        letters &+= 1
        if !Self.isLatin(scalar) { nonLatinLetters &+= 1 }
    }

    private static func endsCode(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ";") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
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

    private static func startsURL(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        for scheme in ["ttp://", "ttps://"] {
            var j = i + 1
            var matched = true
            for expected in scheme.utf8 {
                guard j < bytes.count, bytes[j] == expected else { matched = false; break }
                j += 1
            }
            if matched, j < bytes.count, !isBlank(bytes[j]) { return true }
        }
        return false
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
