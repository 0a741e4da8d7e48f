/// Reads the complete part of a JSON document still being generated: `{"name": "Par` gives `{}`, `{"name": "Paris",
/// "tags": ["a", "b` gives `{"name": "Paris", "tags": ["a"]}`. A member appears once its value is complete (a string
/// closed, a number followed by a delimiter); an object or array being written appears with its complete members,
/// as Foundation Models' partially generated values do. Text before the first `{` or `[` (a code fence) is skipped.
package enum PartialJSON {
    /// The complete part of `text`, or nil before the document's first `{` or `[`.
    package static func parse(_ text: String) -> JSONValue? {
        let bytes = Array(text.utf8)
        guard let start = bytes.firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }) else { return nil }
        var reader = Reader(bytes: bytes, index: start)
        return reader.value()?.value
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
            case UInt8(ascii: "\""): return string().map { ($0, true) }
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
                guard let key = string()?.stringValue else { return (.object(members), false) }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return (.object(members), false) }
                index += 1
                guard let (member, complete) = value() else { return (.object(members), false) }
                if complete || member.objectValue != nil || member.arrayValue != nil { members[key] = member }
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
                if complete || element.objectValue != nil || element.arrayValue != nil { elements.append(element) }
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
