/// A strict RFC 8259 JSON parser producing ``JSONValue``, with no Foundation (HybridValidation, like the core, needs none).
///
/// Differences from `JSONDecoder` that matter for grading model output: duplicate object keys are an error
/// (they make the output ambiguous), integers that fit `Int` stay `.int`, and errors give line and column.
/// Nesting is limited to ``maximumDepth`` so hostile output cannot exhaust the stack.
struct JSONTextParser {
    static let maximumDepth = 256

    /// A parse failure: what was wrong and where (1-based line and column, counted in UTF-8 bytes).
    struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        var reason: String
        var line: Int
        var column: Int
        var description: String { "\(reason) at line \(line), column \(column)" }
    }

    /// Sees the decoded UTF-8 bytes of every string of the document (keys with `isKey` true) as it is parsed,
    /// while the parser still holds them: a caller that must look at every string (the config's secret scan)
    /// then needs no walk over the finished tree. Nil for ordinary parses.
    typealias StringVisitor = (_ bytes: UnsafeBufferPointer<UInt8>, _ isKey: Bool) -> Void

    /// The text's own UTF-8 storage, valid for the parse only (no copy of the document).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let visitor: StringVisitor?
    /// Object keys seen in this parse (see ``KeyTable``): a large config repeats a few dozen key names thousands
    /// of times, so each is decoded once and duplicate checks compare small ids instead of strings.
    private var keys = KeyTable()

    private init(_ bytes: UnsafeBufferPointer<UInt8>, visitor: StringVisitor?) {
        self.bytes = bytes
        self.visitor = visitor
    }

    static func parse(_ text: String, visitingStrings visitor: StringVisitor? = nil) throws(Failure) -> JSONValue {
        var text = text
        // A native string is contiguous UTF-8 already: the parse reads its storage instead of a copy.
        return try text.withUTF8 { bytes in
            Result { () throws(Failure) in try parse(bytes: bytes, visitor: visitor) }
        }.get()
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, visitor: StringVisitor?) throws(Failure) -> JSONValue {
        var parser = JSONTextParser(bytes, visitor: visitor)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position < parser.bytes.count {
            throw parser.failure("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> Failure {
        let end = min(offset ?? position, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<end] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return Failure(reason: reason, line: line, column: column)
    }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of text" }
        let byte = bytes[position]
        if byte >= 0x20, byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
        guard position < bytes.count else { throw failure("unexpected end of text, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString(isKey: false))
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(Failure) {
        let start = position
        for byte in literal.utf8 {
            guard position < bytes.count, bytes[position] == byte else {
                throw failure("invalid literal, expected '\(literal)'", at: start)
            }
            position += 1
        }
    }

    /// Members of the objects being parsed, innermost last: one buffer for the whole parse, so an object's
    /// members are collected without an allocation of their own and hashed once, into a dictionary of the right
    /// size, when the object ends (growing a dictionary member by member rehashes every key at each doubling).
    private var pendingMembers: [PendingMember] = []

    /// A member of an object being parsed; `keyID` is its key's ``KeyTable`` id, or nil when the key was not
    /// entered there (escaped, long or non-ASCII).
    private struct PendingMember {
        var key: String
        var keyID: Int?
        var value: JSONValue
    }
    /// Objects with more members than this check duplicates through a dictionary instead of comparing keys.
    private static let linearDuplicateScanLimit = 16

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        let first = pendingMembers.count
        defer { popMembers(to: first) }
        // Filled once the object outgrows the linear duplicate scan; from then on it is the result.
        var large: [String: JSONValue]?
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()), expected a quoted object key")
            }
            let keyStart = position
            let (key, keyID) = try parseKey()
            if isDuplicate(key, id: keyID, since: first, in: &large) {
                throw failure("duplicate object key \"\(key)\"", at: keyStart)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("unexpected \(describeCurrent()), expected ':' after object key")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            if large != nil { large?[key] = value } else { pendingMembers.append(PendingMember(key: key, keyID: keyID, value: value)) }
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of text, expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(large ?? members(since: first))
            }
            throw failure("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    /// Whether `key` is already a member of the object whose members start at `first`. A handful of keys (nearly
    /// every object) are compared directly; past ``linearDuplicateScanLimit`` the members move into `large`, the
    /// result dictionary, so hostile input with many keys costs one hash per key, not a quadratic scan.
    ///
    /// Two keys from the table are equal exactly when their ids are (same ASCII bytes); any other pair is compared
    /// as strings, so canonically equivalent spellings (`\u212A` and `K`) stay duplicates as `Dictionary` sees them.
    private mutating func isDuplicate(
        _ key: String, id: Int?, since first: Int, in large: inout [String: JSONValue]?
    ) -> Bool {
        if let members = large { return members[key] != nil }
        let count = pendingMembers.count - first
        if count < Self.linearDuplicateScanLimit {
            for index in first..<pendingMembers.count {
                if let id, let other = pendingMembers[index].keyID {
                    if id == other { return true }
                } else if pendingMembers[index].key == key {
                    return true
                }
            }
            return false
        }
        large = members(since: first)
        popMembers(to: first)
        return large?[key] != nil
    }

    /// Drops the members of a finished object one by one: `removeLast(_:)` goes through the generic
    /// `replaceSubrange`, which cost more than the few members an object has.
    private mutating func popMembers(to first: Int) {
        while pendingMembers.count > first { pendingMembers.removeLast() }
    }

    /// The collected members of the object starting at `first`, hashed once each (keys are known to be unique).
    private func members(since first: Int) -> [String: JSONValue] {
        var members = [String: JSONValue](minimumCapacity: pendingMembers.count - first)
        for index in first..<pendingMembers.count {
            members[pendingMembers[index].key] = pendingMembers[index].value
        }
        return members
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of text, expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            throw failure("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    /// An object key, through the parse's ``KeyTable`` when it is short, ASCII and unescaped. Such a key is shown
    /// to the visitor once, when first seen: the same bytes again would tell it nothing new.
    private mutating func parseKey() throws(Failure) -> (key: String, id: Int?) {
        guard keys.admit() else { return (try parseString(isKey: true), nil) }
        let contentStart = position + 1
        var end = contentStart
        while end < bytes.count, end - contentStart <= KeyTable.longestKey {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let key = UnsafeBufferPointer(rebasing: bytes[contentStart..<end])
                guard let entry = keys.entry(for: key) else { break }
                if entry.isNew, let visitor { visitor(key, true) }
                position = end + 1
                return (entry.key, entry.id)
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { break }
            end += 1
        }
        return (try parseString(isKey: true), nil)
    }

    private mutating func parseString(isKey: Bool) throws(Failure) -> String {
        let start = position
        position += 1
        let contentStart = position
        // Most strings have no escapes: find the closing quote and decode the bytes in one go.
        position = firstSpecialByte(from: position)
        if position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                if let visitor { visitor(UnsafeBufferPointer(rebasing: bytes[contentStart..<(position - 1)]), isKey) }
                // The bytes come from a Swift String, so they are valid UTF-8.
                return String(decoding: bytes[contentStart..<(position - 1)], as: UTF8.self)
            }
            if byte < 0x20 { throw failure("unescaped control character in string") }
        }
        guard position < bytes.count else { throw failure("unterminated string", at: start) }
        var buffer = Array(bytes[contentStart..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                if let visitor { buffer.withUnsafeBufferPointer { visitor($0, isKey) } }
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                UTF8.encode(try parseEscape()) { buffer.append($0) }
            case 0x00..<0x20:
                throw failure("unescaped control character in string")
            default:
                buffer.append(byte)
                position += 1
            }
        }
        throw failure("unterminated string", at: start)
    }

    /// The offset of the first `"`, `\\` or control byte at or after `start` (`bytes.count` when none).
    private func firstSpecialByte(from start: Int) -> Int {
        ByteWordSearch.firstIndex(
            in: UnsafeRawBufferPointer(bytes), from: start, equalTo: UInt8(ascii: "\""), or: UInt8(ascii: "\\"), below: 0x20)
    }

    private mutating func parseEscape() throws(Failure) -> Unicode.Scalar {
        guard position < bytes.count else { throw failure("unterminated escape sequence") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired UTF-16 surrogate in \\u escape") }
                position += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid UTF-16 surrogate pair") }
                let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(combined) else { throw failure("invalid \\u escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure("unpaired UTF-16 surrogate in \\u escape") }
            return scalar
        default:
            position -= 1
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - from
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        let intDigits = digits()
        guard intDigits > 0 else { throw failure("invalid number: expected a digit", at: position) }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") {
            throw failure("invalid number: leading zero", at: intStart)
        }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard digits() > 0 else { throw failure("invalid number: expected a digit after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw failure("invalid number: expected a digit in the exponent") }
        }
        // Integers of up to 18 digits cannot overflow Int64: build them from the digits without a String.
        if isInteger, intDigits <= 18 {
            var value = 0
            for index in intStart..<position { value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0")) }
            return .int(bytes[start] == UInt8(ascii: "-") ? -value : value)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let i = Int(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw failure("number out of range", at: start) }
        return .double(d)
    }
}
