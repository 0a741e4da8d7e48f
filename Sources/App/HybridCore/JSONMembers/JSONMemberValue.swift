public import Foundation

/// A value one member of a ``JSONMembers`` table holds: how it is read from bytes and written back. Conforming
/// types are the leaves (strings, numbers, dates, wire names) and the containers (optionals, arrays, string maps,
/// objects with a table of their own).
package protocol JSONMemberValue: SendableMetatype {
    /// True for `Optional`: a member of this type may be absent, and `null` reads as nil.
    static var isOptional: Bool { get }
    /// Reads one value; a problem inside it throws with the path below this value.
    static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Self
    /// True when the value is written as an absent member (nil).
    var isAbsentJSON: Bool { get }
    /// Writes the value (never called when `isAbsentJSON`).
    func writeJSON(_ writer: inout JSONTextWriter) throws(JSONMemberError)
}

extension JSONMemberValue {
    package static var isOptional: Bool { false }
    package var isAbsentJSON: Bool { false }
}

/// Runs `read`, turning a scanner stop into "expected `what`".
@inline(__always)
package func scanning<T>(_ what: StaticString, _ read: () throws(JSONByteScanner.Stop) -> T) throws(JSONMemberError) -> T {
    do {
        return try read()
    } catch {
        throw JSONMemberError("expected \(what)")
    }
}

extension String: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> String {
        try scanning("a string") { () throws(JSONByteScanner.Stop) in try json.readString() }
    }

    package func writeJSON(_ writer: inout JSONTextWriter) { writer.string(self) }
}

extension Int: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Int {
        try scanning("an integer") { () throws(JSONByteScanner.Stop) in try json.readInt() }
    }

    package func writeJSON(_ writer: inout JSONTextWriter) { writer.number(self) }
}

extension Double: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Double {
        try scanning("a finite number") { () throws(JSONByteScanner.Stop) in try json.readDouble() }
    }

    package func writeJSON(_ writer: inout JSONTextWriter) throws(JSONMemberError) {
        guard isFinite else { throw JSONMemberError("\(self) is not a finite number") }
        writer.number(self)
    }
}

extension Bool: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Bool {
        try scanning("true or false") { () throws(JSONByteScanner.Stop) in try json.readBool() }
    }

    package func writeJSON(_ writer: inout JSONTextWriter) { writer.raw(self ? "true" : "false") }
}

/// Dates travel as ISO 8601 UTC strings with milliseconds (``ISO8601Milliseconds``).
extension Date: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Date {
        if let date = readCanonical(&json) { return date }
        let text = try String.readJSON(&json)
        guard let date = ISO8601Milliseconds.parse(text) else {
            throw JSONMemberError("expected an ISO 8601 date such as 2026-11-22T22:26:18.123Z, got \"\(text)\"")
        }
        return date
    }

    package func writeJSON(_ writer: inout JSONTextWriter) { writer.string(ISO8601Milliseconds.format(self)) }

    /// The date when the next value is the canonical form (`"2026-11-22T22:26:18.123Z"`: no escapes, as its
    /// bytes are checked), read in place without a `String`; nil, consuming nothing, for anything else.
    private static func readCanonical(_ json: inout JSONByteScanner) -> Date? {
        json.skipWhitespace()
        let start = json.position
        guard start + 26 <= json.bytes.count, json.bytes[start] == UInt8(ascii: "\""), json.bytes[start + 25] == UInt8(ascii: "\""),
            let date = ISO8601Milliseconds.parseCanonical(UnsafeBufferPointer(rebasing: json.bytes[(start + 1)..<(start + 25)]))
        else { return nil }
        json.position = start + 26
        return date
    }
}

extension Optional: JSONMemberValue where Wrapped: JSONMemberValue {
    package static var isOptional: Bool { true }

    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Wrapped? {
        let isNull = try scanning("a value") { () throws(JSONByteScanner.Stop) in try json.readNull() }
        return isNull ? nil : try Wrapped.readJSON(&json)
    }

    package var isAbsentJSON: Bool { self == nil }

    package func writeJSON(_ writer: inout JSONTextWriter) throws(JSONMemberError) {
        if let self { try self.writeJSON(&writer) } else { writer.raw("null") }
    }
}

extension Array: JSONMemberValue where Element: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> [Element] {
        var elements: [Element] = []
        guard try scanning("an array", { () throws(JSONByteScanner.Stop) in try json.openArray() }) else { return elements }
        repeat {
            do {
                elements.append(try Element.readJSON(&json))
            } catch {
                throw error.inside("[\(elements.count)]")
            }
        } while try scanning("`,` or `]`", { () throws(JSONByteScanner.Stop) in try json.continues(before: UInt8(ascii: "]")) })
        return elements
    }

    package func writeJSON(_ writer: inout JSONTextWriter) throws(JSONMemberError) {
        writer.raw("[")
        for (index, element) in enumerated() {
            if index > 0 { writer.raw(",") }
            do {
                try element.writeJSON(&writer)
            } catch {
                throw error.inside("[\(index)]")
            }
        }
        writer.raw("]")
    }
}

/// String maps (labels, content inputs): a repeated key is refused, naming it.
extension Dictionary: JSONMemberValue where Key == String, Value == String {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> [String: String] {
        var map: [String: String] = [:]
        guard try scanning("an object", { () throws(JSONByteScanner.Stop) in try json.openObject() }) else { return map }
        repeat {
            let key = try scanning("a member name") { () throws(JSONByteScanner.Stop) in
                let key = try json.readString()
                try json.expect(UInt8(ascii: ":"))
                return key
            }
            let value = try scanning("a string") { () throws(JSONByteScanner.Stop) in try json.readString() }
            guard map.updateValue(value, forKey: key) == nil else { throw JSONMemberError(path: key, "duplicate member") }
        } while try scanning("`,` or `}`", { () throws(JSONByteScanner.Stop) in try json.continues(before: UInt8(ascii: "}")) })
        return map
    }

    package func writeJSON(_ writer: inout JSONTextWriter) {
        writer.raw("{")
        for (index, key) in keys.sorted().enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(key)
            writer.raw(":")
            writer.string(self[key]!)
        }
        writer.raw("}")
    }
}

/// Wire names kept as they are (`RouteEvent.Outcome`, `ModelTier` refuses names it does not know).
extension JSONMemberValue where Self: RawRepresentable, RawValue == String {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> Self {
        let name = try String.readJSON(&json)
        guard let value = Self(rawValue: name) else { throw JSONMemberError("unknown value \"\(name)\"") }
        return value
    }

    package func writeJSON(_ writer: inout JSONTextWriter) { writer.string(rawValue) }
}

/// Any JSON (tool-call arguments, schemas): the value's bytes are checked by the scanner, then parsed into a tree.
extension JSONValue: JSONMemberValue {
    package static func readJSON(_ json: inout JSONByteScanner) throws(JSONMemberError) -> JSONValue {
        json.skipWhitespace()
        let start = json.position
        try scanning("a JSON value") { () throws(JSONByteScanner.Stop) in try json.skipValue() }
        let text = String(decoding: UnsafeBufferPointer(rebasing: json.bytes[start..<json.position]), as: UTF8.self)
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw JSONMemberError("\(error)")
        }
    }

    package func writeJSON(_ writer: inout JSONTextWriter) { writer.value(self) }
}
