/// A strict RFC 8259 reader over UTF-8 bytes for the fast paths that read one documented shape: providers' answers
/// and stream chunks and route events, through the member tables (`JSONMembers`, HybridCore). It is the only reader
/// of those shapes: a stop means the input is not JSON of that shape, and the caller names where.
package struct JSONByteScanner {
    /// The input is not JSON of the shape being read, here.
    package struct Stop: Error {}

    /// Nesting beyond this stops the scan, so a hostile body cannot exhaust the stack.
    static let maximumDepth = 128

    package let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    package var position: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package var atEnd: Bool { position >= bytes.count }

    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, without consuming it.
    mutating func peek() throws(Stop) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw Stop() }
        return bytes[position]
    }

    /// Consumes `byte` after whitespace.
    package mutating func expect(_ byte: UInt8) throws(Stop) {
        guard try peek() == byte else { throw Stop() }
        position += 1
    }

    /// After a member or element: true at `,` (consumed), false at `close` (consumed).
    package mutating func continues(before close: UInt8) throws(Stop) -> Bool {
        let byte = try peek()
        position += 1
        if byte == UInt8(ascii: ",") { return true }
        guard byte == close else { throw Stop() }
        return false
    }

    /// Consumes `{` and answers whether the object has members (false consumes `}` too).
    package mutating func openObject() throws(Stop) -> Bool {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return false
        }
        return true
    }

    /// Consumes `[` and answers whether the array has elements (false consumes `]` too).
    package mutating func openArray() throws(Stop) -> Bool {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return false
        }
        return true
    }

    /// A member name without escapes and its `:`, as a byte range of the input (a name with escapes stops).
    package mutating func readKey() throws(Stop) -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw Stop() }
            position += 1
        }
        guard position < bytes.count else { throw Stop() }
        let range = start..<position
        position += 1
        try expect(UInt8(ascii: ":"))
        return range
    }

    /// True when the bytes at `range` spell `name`.
    func matches(_ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] {
            return false
        }
        return true
    }

    /// Consumes `null` when it comes next.
    package mutating func readNull() throws(Stop) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    package mutating func readBool() throws(Stop) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw Stop()
        }
    }

    private mutating func literal(_ text: StaticString) throws(Stop) {
        let start = text.utf8Start
        for offset in 0..<text.utf8CodeUnitCount {
            guard position < bytes.count, bytes[position] == start[offset] else { throw Stop() }
            position += 1
        }
    }
}

// MARK: - Strings

extension JSONByteScanner {
    /// A string: escapes decoded, UTF-8 validated, lone surrogates and control characters refused.
    package mutating func readString() throws(Stop) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            // Plain printable ASCII is the common case; anything else takes the careful path.
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { break }
            position += 1
        }
        return try readStringSlowly(from: start)
    }

    /// A string with escapes or non-ASCII bytes: escapes decoded, UTF-8 validated, lone surrogates refused.
    private mutating func readStringSlowly(from start: Int) throws(Stop) -> String {
        var utf8: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw Stop() }
                return text
            case UInt8(ascii: "\\"):
                try readEscape(into: &utf8)
            case 0..<0x20:
                throw Stop()
            default:
                utf8.append(byte)
            }
        }
        throw Stop()
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(Stop) {
        guard position < bytes.count else { throw Stop() }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"): try readUnicodeEscape(into: &utf8)
        default: throw Stop()
        }
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`; a lone surrogate stops (decoders disagree about it).
    private mutating func readUnicodeEscape(into utf8: inout [UInt8]) throws(Stop) {
        var value = try readHex4()
        if (0xD800..<0xDC00).contains(value) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw Stop() }
            position += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw Stop() }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(value) {
            throw Stop()
        }
        guard let scalar = Unicode.Scalar(value) else { throw Stop() }
        utf8.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func readHex4() throws(Stop) -> UInt32 {
        guard position + 4 <= bytes.count else { throw Stop() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Stop()
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

// MARK: - Numbers

extension JSONByteScanner {
    /// The shape of one JSON number token.
    private struct NumberToken {
        var range: Range<Int>
        var negative: Bool
        /// The digits as an integer, with the decimal point dropped; nil past 15 digits.
        var significand: Int64?
        /// The power of ten to apply to `significand` (fraction digits and exponent together).
        var exponent: Int
        var isInteger: Bool
    }

    /// An integer written as one (`12`, `-3`); `12.0`, `1e2` or a value past `Int` stop.
    package mutating func readInt() throws(Stop) -> Int {
        skipWhitespace()
        let token = try readNumberToken()
        guard token.isInteger, token.exponent == 0 else { throw Stop() }
        if let significand = token.significand { return Int(token.negative ? -significand : significand) }
        // Past 15 digits: the standard library's parser, which refuses values past `Int`.
        guard let value = Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)) else {
            throw Stop()
        }
        return value
    }

    /// A number as a correctly rounded `Double` (exact fast path, else the standard library's parser); values that
    /// overflow stop.
    package mutating func readDouble() throws(Stop) -> Double {
        skipWhitespace()
        let token = try readNumberToken()
        // Clinger's fast path: both operands exact, so one correctly rounded operation gives the right answer.
        if let significand = token.significand, significand < 1 << 53, abs(token.exponent) <= 22 {
            let magnitude = Double(significand)
            let scaled = token.exponent < 0
                ? magnitude / Self.powersOfTen[-token.exponent] : magnitude * Self.powersOfTen[token.exponent]
            return token.negative ? -scaled : scaled
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Stop() }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Reads `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, then requires a delimiter.
    private mutating func readNumberToken() throws(Stop) -> NumberToken {
        let start = position
        var token = NumberToken(range: start..<start, negative: false, significand: 0, exponent: 0, isInteger: true)
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            token.negative = true
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else { throw Stop() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            readDigits(into: &token, scale: 0)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            token.isInteger = false
            guard position < bytes.count, isDigit(bytes[position]) else { throw Stop() }
            readDigits(into: &token, scale: -1)
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            token.isInteger = false
            token.exponent += try readExponent()
        }
        if position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): break
            default: throw Stop()
            }
        }
        token.range = start..<position
        return token
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Digits into the significand; `scale` -1 counts each as a fraction digit.
    private mutating func readDigits(into token: inout NumberToken, scale: Int) {
        while position < bytes.count, isDigit(bytes[position]) {
            if let significand = token.significand {
                token.significand = significand <= 99_999_999_999_999 ? significand * 10 + Int64(bytes[position] - 0x30) : nil
            }
            token.exponent += scale
            position += 1
        }
    }

    private mutating func readExponent() throws(Stop) -> Int {
        position += 1
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else { throw Stop() }
        var value = 0
        while position < bytes.count, isDigit(bytes[position]) {
            value = min(value * 10 + Int(bytes[position] - 0x30), 100_000)
            position += 1
        }
        return negative ? -value : value
    }
}

// MARK: - Skipping

extension JSONByteScanner {
    /// Skips one value of any shape, validating it as strictly as it reads (unknown members, malformed events).
    package mutating func skipValue(depth: Int = 0) throws(Stop) {
        guard depth < Self.maximumDepth else { throw Stop() }
        switch try peek() {
        case UInt8(ascii: "{"):
            guard try openObject() else { return }
            repeat {
                _ = try readString()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
            } while try continues(before: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard try openArray() else { return }
            repeat {
                try skipValue(depth: depth + 1)
            } while try continues(before: UInt8(ascii: "]"))
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): _ = try readNull()
        default: _ = try readNumberToken()
        }
    }
}
