/// JSON text built straight into UTF-8 bytes: compact, object keys sorted, strings escaped as
/// ``JSONValue/canonicalJSON`` escapes them (which it writes with this). For the hot paths that wrote JSON through
/// `JSONEncoder` (request bodies, stored result columns), the largest per-request cost of a fast eval.
package struct JSONTextWriter: Sendable {
    /// The text so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text so far as a string.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text` as it is (punctuation, literals).
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `"name":`, after a comma unless it is the object's first member (the object's `{` is the last byte
    /// written), so a writer of optional members keeps no flag of its own.
    package mutating func key(_ name: StaticString) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends `"name":"value"` when `value` is set: optional members are left out when nil.
    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// Appends `"name":value` when `value` is set.
    package mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    /// Appends `"name":value` when `value` is set (finite: the caller checks, as for ``number(_:)-(Double)``).
    package mutating func member(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    /// Appends `"name":value` when `value` is set, object keys sorted.
    package mutating func member(_ name: StaticString, _ value: JSONValue?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    /// Appends `value` quoted: `"`, `\`, newline, return and tab as two-character escapes, other control
    /// characters as `\u00XX`, everything else as it is.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        // Runs between escapes are copied whole: a byte-at-a-time append was most of a request body's encoding.
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == 0x22 || utf8[index] == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(utf8[index])
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        default: bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, Self.hex(byte >> 4), Self.hex(byte & 0x0F)])
        }
    }

    /// Appends an integer.
    package mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends a finite double (whole values without `.0`, as users write them); the caller checks finiteness.
    package mutating func number(_ value: Double) {
        bytes.append(contentsOf: JSONValue.formatNumber(value).utf8)
    }

    /// Appends `[a,b,…]`, `element` writing each item: every request body's arrays of messages, tools and parts.
    package mutating func list<Item>(_ items: [Item], _ element: (Item, inout JSONTextWriter) -> Void) {
        raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element(item, &self)
        }
        raw("]")
    }

    /// Appends `value` with object keys sorted.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .int(let i): number(i)
        case .double(let d): number(d)
        case .string(let s): string(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            object(members, keys: members.keys.sorted())
        }
    }

    /// An object's members in `keys` order. A JSON Schema's `properties` go in the order of its `required` list (a
    /// derived schema lists every property there in declaration order): models generate properties in the order the
    /// schema text gives them, so the app's declaration order is the generation order, as in Foundation Models.
    private mutating func object(_ members: [String: JSONValue], keys: [String]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(key)
            bytes.append(UInt8(ascii: ":"))
            if key == "properties", case .object(let properties)? = members[key], case .array(let required)? = members["required"] {
                object(properties, keys: Self.declarationOrder(of: properties, required: required))
            } else {
                value(members[key] ?? .null)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The `required` names first, in their order, then any other property sorted.
    private static func declarationOrder(of properties: [String: JSONValue], required: [JSONValue]) -> [String] {
        var seen = Set<String>()
        let named = required.compactMap { entry -> String? in
            guard case .string(let name) = entry, properties[name] != nil, seen.insert(name).inserted else { return nil }
            return name
        }
        return named + properties.keys.filter { !seen.contains($0) }.sorted()
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
