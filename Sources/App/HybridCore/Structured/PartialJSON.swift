/// Reads the part of a JSON document still being generated that can be known: `{"name": "Par` gives
/// `{"name": "Par"}`, `{"name": "Paris", "tags": ["a", "b` gives `{"name": "Paris", "tags": ["a", "b"]}`. A string
/// grows as its text arrives (an escape or a character cut in the middle waits for its end), a number or literal
/// appears once followed by a delimiter, an object or array being written appears with what is known of its
/// members, as Foundation Models' partially generated values do. A key appears only once its value has begun. Text
/// before the first `{` or `[` (a code fence) is skipped.
package enum PartialJSON {
    /// What is known of `text`, or nil before the document's first `{` or `[`.
    package static func parse(_ text: String) -> JSONValue? {
        read(text)?.value
    }

    /// What is known of `text` and whether the document is complete (its outermost `}` or `]` arrived).
    package static func read(_ text: String) -> (value: JSONValue, complete: Bool)? {
        let bytes = Array(text.utf8)
        guard let start = bytes.firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }) else { return nil }
        var reader = Reader(bytes: bytes, index: start)
        return reader.value()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index: Int

        /// The value at `index` and whether it is complete; nil when nothing of it is usable yet.
        mutating func value() -> (value: JSONValue, complete: Bool)? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""):
                if let closed = string() { return (closed, true) }
                return growingString().map { ($0, false) }
            default: return scalar().map { ($0, true) }
            }
        }

        private mutating func object() -> (value: JSONValue, complete: Bool)? {
            index += 1
            var members: [String: JSONValue] = [:]
            while true {
                skipSpace()
                guard index < bytes.count else { return (.object(members), false) }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return (.object(members), true)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard let key = string()?.stringValue else { return (.object(members), false) }  // a key is whole or absent
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return (.object(members), false) }
                index += 1
                guard let (member, complete) = value() else { return (.object(members), false) }
                members[key] = member
                if !complete { return (.object(members), false) }
            }
        }

        private mutating func array() -> (value: JSONValue, complete: Bool)? {
            index += 1
            var elements: [JSONValue] = []
            while true {
                skipSpace()
                guard index < bytes.count else { return (.array(elements), false) }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return (.array(elements), true)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard let (element, complete) = value() else { return (.array(elements), false) }
                elements.append(element)
                if !complete { return (.array(elements), false) }
            }
        }

        /// A string whose closing quote has arrived.
        private mutating func string() -> JSONValue? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var end = index + 1
            while end < bytes.count {
                if bytes[end] == UInt8(ascii: "\\") {
                    end += 2
                    continue
                }
                if bytes[end] == UInt8(ascii: "\"") { break }
                end += 1
            }
            guard end < bytes.count else { return nil }
            let token = String(decoding: bytes[index...end], as: UTF8.self)
            index = end + 1
            return try? JSONValue(parsing: token)
        }

        /// A string whose closing quote has not arrived: its text so far, less an escape sequence or a UTF-8 character
        /// cut at the end; nil while nothing of it is known.
        private mutating func growingString() -> JSONValue? {
            var content = Array(bytes[(index + 1)...])
            index = bytes.count
            Self.trimCutEscape(&content)
            Self.trimCutCharacter(&content)
            guard !content.isEmpty else { return nil }  // nothing of it known yet
            return try? JSONValue(parsing: String(decoding: [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")], as: UTF8.self))
        }

        /// Drops a `\` or `\uXX` at the end that its following characters have not completed yet.
        private static func trimCutEscape(_ content: inout [UInt8]) {
            var backslashes = 0
            while backslashes < content.count, content[content.count - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 1 {
                content.removeLast()
                return
            }
            // `\u` and up to three hex digits.
            for length in 2...5 where content.count >= length {
                let start = content.count - length
                guard content[start] == UInt8(ascii: "\\"), content[start + 1] == UInt8(ascii: "u") else { continue }
                var precedingBackslashes = 0
                while start - 1 - precedingBackslashes >= 0, content[start - 1 - precedingBackslashes] == UInt8(ascii: "\\") {
                    precedingBackslashes += 1
                }
                if precedingBackslashes % 2 == 0 { content.removeLast(length) }
                return
            }
        }

        /// Drops the leading bytes of a UTF-8 character whose last bytes have not arrived.
        private static func trimCutCharacter(_ content: inout [UInt8]) {
            var continuation = 0
            while continuation < min(3, content.count), content[content.count - 1 - continuation] & 0xC0 == 0x80 { continuation += 1 }
            guard continuation < content.count else { return }
            let lead = content[content.count - 1 - continuation]
            let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
            if needed > continuation { content.removeLast(continuation + 1) }
        }

        /// A number, `true`, `false` or `null` followed by a delimiter (at the end it may still grow).
        private mutating func scalar() -> JSONValue? {
            var end = index
            let delimiters: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09]
            while end < bytes.count, !delimiters.contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return nil }
            let token = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end
            return try? JSONValue(parsing: token)
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }
    }
}
